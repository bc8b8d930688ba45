import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Segments: create (from a visible route's points or from a list of points), read, list mine or
/// near a point, delete. Creating and deleting keep the stored efforts in step (`SegmentEfforts`).
struct SegmentsController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let viewer: RouteViewer
    let buckets: PointBuckets
    let segments: SegmentRepository
    let efforts: SegmentEfforts
    let clock: WallClock

    /// `POST /v1/segments`: `201` with the segment, once its efforts on existing routes are stored.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<SegmentView> {
        let user = try await auth.user(request)
        let body = try await request.decodeJSON(SegmentCreateRequest.self)
        let name = try RouteRules.name(body.name)
        let points: [Coordinate]
        switch (body.route, body.points) {
        case (let route?, nil):
            guard let from = body.from, let to = body.to, from >= 0, to > from else {
                throw APIError.invalid("'from' and 'to' must be point indices with 0 ≤ from < to", field: "from")
            }
            points = try await routePoints(route, from: from, to: to, token: try auth.token(request))
        case (nil, let given?):
            guard body.from == nil, body.to == nil else {
                throw APIError.invalid("'from' and 'to' go with 'route', not with 'points'", field: "from")
            }
            points = try Self.validated(given)
        default:
            throw APIError.invalid("give either 'route' with 'from' and 'to', or 'points'", field: "points")
        }
        let lengthM = SegmentPath(points: points).lengthM
        guard lengthM >= SegmentRules.minLengthM, lengthM <= SegmentRules.maxLengthM else {
            throw APIError.unprocessable(
                "a segment must be 100 m to 100 km long; this one is \(HumanFormat.fixed(lengthM, decimals: 0)) m",
                details: ["length_m": .double(lengthM)])
        }
        let segment = SegmentRecord(
            id: NewID.make(), owner: user.id, name: name, points: points, lengthM: lengthM,
            createdAt: clock.now.millisecondPrecision)
        try await segments.insert(segment)
        do {
            try await efforts.match(segment)
        } catch {
            // A rejected request changes nothing: the segment goes again, with what was matched. If
            // that fails too, the request's own error is still the answer; the segment left behind
            // is logged for an operator (its owner sees it in their list and can delete it).
            do {
                _ = try await segments.delete(id: segment.id, owner: user.id)
                try await efforts.segmentRemoved(segment.id)
            } catch let cleanup {
                context.logger.error(
                    "could not remove a segment whose matching failed",
                    metadata: ["segment": "\(segment.id)", "error": "\(cleanup)"])
            }
            throw error
        }
        return .created(SegmentView(segment))
    }

    /// `GET /v1/segments/{id}`: any signed-in user who knows the id.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> SegmentView {
        _ = try await auth.user(request)
        return SegmentView(try await find(context))
    }

    /// `GET /v1/segments`: mine, newest first; with `near`, every segment starting within
    /// `radius_m` (default 1000, at most 50,000), nearest first.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<SegmentView> {
        let user = try await auth.user(request)
        if request.query["near"] != nil { return try await near(request) }
        guard request.query["radius_m"] == nil else {
            throw APIError.invalid("'radius_m' is only meaningful with 'near'", field: "radius_m")
        }
        let page = try PageRequest(request, list: "segments", shape: .dateThenID)
        let mine = try await segments.segments(of: user.id)
        let sliced = page.page(
            of: mine, list: "segments", key: { [$0.createdAt.millisecondsKey, $0.id] },
            isAfter: NewestFirst.thenByNewestID)
        return Page(items: sliced.items.map { SegmentView($0) }, next: sliced.next, total: mine.count)
    }

    /// `DELETE /v1/segments/{id}`: the owner's; anyone else who can read it gets `403`.
    func delete(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let user = try await auth.user(request)
        let segment = try await find(context)
        guard segment.owner == user.id else { throw NotSegmentOwner() }
        // Once the segment is gone its efforts are unreachable; then they go too.
        _ = try await segments.delete(id: segment.id, owner: user.id)
        try await efforts.segmentRemoved(segment.id)
        return NoContent()
    }

    private func find(_ context: AppRequestContext) async throws -> SegmentRecord {
        guard let segment = try await segments.find(id: try context.parameters.require("id")) else {
            throw SegmentNotFound()
        }
        return segment
    }

    private func near(_ request: Request) async throws -> Page<SegmentView> {
        let query = request.query
        let parts = (query["near"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat),
            (-180...180).contains(lon)
        else {
            throw APIError.invalid(
                "'near' must be 'lat,lon' with lat in [-90, 90] and lon in [-180, 180]", field: "near")
        }
        var radius = SegmentRules.defaultNearRadiusM
        if let raw = query["radius_m"] {
            guard let value = Double(raw), value.isFinite, (0...SegmentRules.maxNearRadiusM).contains(value) else {
                throw APIError.invalid("'radius_m' must be a number of metres in [0, 50000]", field: "radius_m")
            }
            radius = value
        }
        let list = "segments:near:\(lat),\(lon),\(radius)"
        let page = try PageRequest(request, list: list, shape: .distanceThenID)
        let centre = Coordinate(lat: lat, lon: lon)
        let hits = try await segments.startingNear(centre, radiusM: radius)
            .map { (segment: $0, distance: Geodesic.distance(from: centre, to: $0.start)) }
            .filter { $0.distance <= radius }
            .sorted { ($0.distance, $0.segment.id) < ($1.distance, $1.segment.id) }
        let sliced = page.page(
            of: hits, list: list, key: { [String($0.distance), $0.segment.id] },
            isAfter: { position, key in
                guard position.count == 2, key.count == 2, let p = Double(position[0]), let k = Double(key[0]) else {
                    return false
                }
                return (p, position[1]) < (k, key[1])
            })
        return Page(
            items: sliced.items.map { SegmentView($0.segment, distanceFromM: $0.distance) }, next: sliced.next,
            total: hits.count)
    }

    /// The points `from`...`to` of route `id` as the caller of `token` downloads them (the owner's privacy zones
    /// apply to everyone else). A route the caller cannot see, or too few points, is `422`.
    private func routePoints(_ id: String, from: Int, to: Int, token: String) async throws -> [Coordinate] {
        let reading: RouteAccess.Reading
        do {
            reading = try await access.reading(id, token: token)
        } catch is RouteNotVisible {
            throw APIError.unprocessable(
                "'route' names a route you cannot see", details: ["routes": .array([.string(id)])])
        }
        let (route, lens) = (reading.route, reading.lenses.privacy)
        var visible: [Coordinate] = []
        for try await chunk in buckets.read(route) {
            for point in chunk where !lens.hides(point) {
                visible.append(point.coordinate)
            }
            if visible.count > to { break }
        }
        guard visible.count > to else {
            throw APIError.unprocessable(
                "'to' is past the route's last point (it has \(visible.count))",
                details: ["points": .int(visible.count)])
        }
        return Array(visible[from...to])
    }

    /// A list of 2–10,000 valid points, else `400` naming the first bad one.
    private static func validated(_ points: [Coordinate]) throws -> [Coordinate] {
        guard (SegmentRules.minPoints...SegmentRules.maxPoints).contains(points.count) else {
            throw APIError.invalid("'points' must hold 2 to 10000 points", field: "points")
        }
        for (i, p) in points.enumerated() {
            guard p.lat.isFinite, (-90...90).contains(p.lat) else {
                throw APIError.invalid("a point's 'lat' must be in [-90, 90]", field: "points", index: i, key: "lat")
            }
            guard p.lon.isFinite, (-180...180).contains(p.lon) else {
                throw APIError.invalid("a point's 'lon' must be in [-180, 180]", field: "points", index: i, key: "lon")
            }
        }
        return points
    }
}
