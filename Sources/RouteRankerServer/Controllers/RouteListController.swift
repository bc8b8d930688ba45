import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// `GET /v1/routes`: my routes, sorted, with keyset pagination; or, with `near`, the routes visible
/// to me that start within a radius, nearest first.
struct RouteListController: Sendable {
    let auth: Authenticator
    let routes: RouteRepository
    let access: RouteAccess
    let users: UserRepository
    let viewer: RouteViewer

    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<RouteSummary> {
        let user = try await auth.user(request)
        if request.query["near"] != nil {
            return try await near(request, user: user)
        }
        guard request.query["radius_m"] == nil else {
            throw APIError.invalid("'radius_m' is only meaningful with 'near'", field: "radius_m")
        }
        let sortParameter = request.query["sort"] ?? "-started_at"
        let descending = sortParameter.hasPrefix("-")
        let key = descending ? String(sortParameter.dropFirst()) : sortParameter
        guard let order = RouteOrder(key: key, descending: descending) else {
            let keys = RouteOrder.keys.joined(separator: ", ")
            throw APIError.invalid("'sort' must be one of \(keys), optionally with '-'", field: "sort")
        }
        let list = "routes:\(sortParameter)"
        let page = try PageRequest(request, list: list, shape: SortKeyset.cursorShape(field: order.field))
        // One more than the page: whether there is a next page.
        let found = try await routes.page(owner: user.id, order: order, after: page.after, limit: page.limit + 1)
        let items = Array(found.prefix(page.limit))
        let next =
            found.count > page.limit
            ? items.last.map { Cursor(list: list, key: SortKeyset.key(of: $0.record, field: key)).encoded } : nil
        let total: Int
        if let whole = ListTotal.fromFirstPage(isFirst: page.after == nil, read: found.count, asked: page.limit + 1) {
            total = whole
        } else {
            total = try await routes.count(owner: user.id)
        }
        return Page(items: items.map { RouteSummary($0.record, sharedWith: $0.recipients) }, next: next, total: total)
    }

    /// `?near=lat,lon&radius_m=`: my routes come from the `2dsphere` index (a sphere, so the radius
    /// is padded by 1 %), the routes shared with me by their visible start; exact WGS84 geodesic
    /// distances decide and order.
    private func near(_ request: Request, user: UserRecord) async throws -> Page<RouteSummary> {
        let query = request.query
        let parts = (query["near"] ?? "").split(separator: ",").map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat),
            (-180...180).contains(lon)
        else {
            throw APIError.invalid(
                "'near' must be 'lat,lon' with lat in [-90, 90] and lon in [-180, 180]", field: "near")
        }
        guard let radius = query["radius_m"].flatMap(Double.init), radius.isFinite,
            (0...20_037_509).contains(radius)
        else { throw APIError.invalid("'radius_m' must be a number of metres in [0, 20037509]", field: "radius_m") }
        let list = "routes:near:\(lat),\(lon),\(radius)"
        let page = try PageRequest(request, list: list, shape: .distanceThenID)

        let centre = Coordinate(lat: lat, lon: lon)
        var hits: [(summary: RouteSummary, distance: Double)] = []
        // Mine: candidates from the index, exact distances from their true starts.
        let own = try await routes.startingNear(centre, radiusM: radius, owner: user.id)
        for route in own {
            guard let start = route.stats.start else { continue }
            let distance = Geodesic.distance(from: centre, to: start.coordinate)
            if distance <= radius {
                hits.append(
                    (RouteSummary(route.record, sharedWith: route.recipients, distanceFromM: distance), distance))
            }
        }
        // Shared with me: the start I can see, which the owner's privacy zones may move.
        let shared = try await access.sharedRoutes(with: user, annotations: false)
        let privacy = try await users.privacy(of: shared.values.map(\.owner))
        for route in shared.values {
            let summary = try await viewer.summary(route, lens: viewer.lens(privacy[route.owner]))
            guard let start = summary.stats.start else { continue }
            let distance = Geodesic.distance(from: centre, to: start.coordinate)
            if distance <= radius {
                var summary = summary
                summary.distanceFromM = distance
                hits.append((summary, distance))
            }
        }
        hits.sort { ($0.distance, $0.summary.id) < ($1.distance, $1.summary.id) }
        let sliced = page.page(
            of: hits, list: list, key: { [String($0.distance), $0.summary.id] },
            isAfter: Self.nearerFirst)
        return Page(
            items: sliced.items.map(\.summary), next: sliced.next,
            total: hits.count)
    }

    /// "Nearest first, ties by id": whether `key` comes after `position`, both `[distance_m, id]`
    /// (`CursorShape.distanceThenID`: the cursor's was checked when it was read).
    static func nearerFirst(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == 2, key.count == 2, let d = Double(position[0]), let kd = Double(key[0]) else {
            return false
        }
        return (d, position[1]) < (kd, key[1])
    }
}
