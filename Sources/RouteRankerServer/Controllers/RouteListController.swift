import Foundation
import Hummingbird
import Mongo
import RouteRankerCore

/// `GET /v1/routes`: my routes, sorted, with keyset pagination; or, with `near`, the routes visible
/// to me that start within a radius, nearest first.
struct RouteListController: Sendable {
    let auth: Authenticator
    let routes: RouteRepository

    /// The sort keys and the stored field each one reads.
    static let sortFields: [String: String] = [
        "started_at": "started_at", "name": "name", "distance_m": "metrics.distance_m",
        "duration_s": "metrics.duration_s", "avg_pace_s_per_km": "metrics.avg_pace_s_per_km",
    ]

    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<RouteSummary> {
        let user = try await auth.user(request)
        if request.uri.queryParameters["near"] != nil {
            return try await near(request, user: user)
        }
        let sortParameter = request.uri.queryParameters["sort"].map(String.init) ?? "-started_at"
        let descending = sortParameter.hasPrefix("-")
        let key = descending ? String(sortParameter.dropFirst()) : sortParameter
        guard let field = Self.sortFields[key] else {
            throw APIError.invalid(
                "'sort' must be one of started_at, name, distance_m, duration_s, avg_pace_s_per_km, optionally with '-'",
                field: "sort")
        }
        let list = "routes:\(sortParameter)"
        let page = try PageRequest(request, list: list)
        let mine: BSONDocument = ["owner": .string(user.id)]
        let keyset = try SortKeyset(field: field, descending: descending, after: page.after)

        var found = try await routes.find(
            keyset.valuedFilter(mine), sort: [field: descending ? -1 : 1, "_id": 1], limit: page.limit + 1)
        if found.count <= page.limit {
            found += try await routes.find(
                keyset.nullFilter(mine), sort: ["_id": 1], limit: page.limit + 1 - found.count)
        }
        let items = Array(found.prefix(page.limit))
        let next =
            found.count > page.limit
            ? items.last.map { Cursor(list: list, key: SortKeyset.key(of: $0, field: key)).encoded } : nil
        return Page(
            items: items.map { RouteSummary($0, sharedWith: []) }, next: next, total: try await routes.count(mine))
    }

    /// `?near=lat,lon&radius_m=`: candidates from the `2dsphere` index (a sphere, so the radius is
    /// padded by 1 %), then exact WGS84 geodesic distances decide and order.
    private func near(_ request: Request, user: UserRecord) async throws -> Page<RouteSummary> {
        let query = request.uri.queryParameters
        let parts = String(query["near"] ?? "").split(separator: ",").map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat),
            (-180...180).contains(lon)
        else {
            throw APIError.invalid(
                "'near' must be 'lat,lon' with lat in [-90, 90] and lon in [-180, 180]", field: "near")
        }
        guard let radius = query["radius_m"].flatMap({ Double(String($0)) }), radius.isFinite,
            (0...20_037_509).contains(radius)
        else { throw APIError.invalid("'radius_m' must be a number of metres in [0, 20037509]", field: "radius_m") }
        let list = "routes:near:\(lat),\(lon),\(radius)"
        let page = try PageRequest(request, list: list)

        let earthRadius = 6_371_008.8
        let filter: BSONDocument = [
            "owner": .string(user.id),
            "start": [
                "$geoWithin": [
                    "$centerSphere": [
                        [.double(lon), .double(lat)], .double(min(radius * 1.01 + 10, 2.1e7) / earthRadius),
                    ]
                ]
            ],
        ]
        let centre = Coordinate(lat: lat, lon: lon)
        let candidates = try await routes.find(filter, sort: ["_id": 1], limit: 0)
        let hits = candidates.compactMap { route -> (RouteRecord, Double)? in
            guard let start = route.stats.start else { return nil }
            let distance = Geodesic.distance(from: centre, to: Coordinate(lat: start.lat, lon: start.lon))
            return distance <= radius ? (route, distance) : nil
        }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        let sliced = page.page(
            of: hits, list: list, key: { [String($0.1), $0.0.id] },
            isAfter: { position, key in
                let (d, id) = (Double(position[0]) ?? 0, position.count > 1 ? position[1] : "")
                let (kd, kid) = (Double(key[0]) ?? 0, key[1])
                return (d, id) < (kd, kid)
            })
        return Page(
            items: sliced.items.map { RouteSummary($0.0, sharedWith: [], distanceFromM: $0.1) }, next: sliced.next,
            total: hits.count)
    }
}
