import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// Routes with stats known in advance, paths for `similar`, and calls for the groups, compare and
/// similar tests.
enum GroupFixture {
    static let t0 = 1_760_000_000.0
    /// Where the group tests' routes start.
    static let base = Coordinate(lat: 47.3769, lon: 8.5417)
    /// A route id that exists nowhere (an ObjectId, as real ids are).
    static let madeUpRoute = "65f0c0ffee0000000000abcd"
    /// A group id that exists nowhere.
    static let madeUpGroup = "65f0c0ffee0000000000dcba"

    /// Two points `metres` apart (heading north) and `seconds` apart: `distance_m` is the geodesic
    /// distance between them, `duration_s` is `seconds`, and `moving_time_s` is `seconds` when the
    /// speed reaches the activity's moving threshold (else 0).
    static func leg(metres: Double, seconds: Double, from: Coordinate = base, t0: Double = t0) -> [TrackPoint] {
        let end = Geodesic.direct(from: from, azimuth: 0, distance: metres)
        return [
            TrackPoint(lat: from.lat, lon: from.lon, t: t0),
            TrackPoint(lat: end.lat, lon: end.lon, t: t0 + seconds),
        ]
    }

    /// The geodesic length the server computes for a two-point `leg`.
    static func legLength(_ points: [TrackPoint]) -> Double {
        Geodesic.distance(
            from: Coordinate(lat: points[0].lat, lon: points[0].lon),
            to: Coordinate(lat: points[1].lat, lon: points[1].lon))
    }

    /// `count` points `step` m apart heading `azimuth` from `from`, one every `dt` s.
    static func straight(
        _ count: Int = 100, from: Coordinate = base, azimuth: Double = 90, step: Double = 10, t0: Double = t0,
        dt: Double = 3
    ) -> [TrackPoint] {
        (0..<count).map { i in
            let c = Geodesic.direct(from: from, azimuth: azimuth, distance: step * Double(i))
            return TrackPoint(lat: c.lat, lon: c.lon, t: t0 + dt * Double(i))
        }
    }

    /// The same points pushed sideways (north or south) by at most `amplitude` metres.
    static func noisy(_ points: [TrackPoint], amplitude: Double = 4) -> [TrackPoint] {
        points.enumerated().map { i, p in
            let offset = amplitude * sin(Double(i) * 1.3)
            let c = Geodesic.direct(
                from: Coordinate(lat: p.lat, lon: p.lon), azimuth: offset < 0 ? 180 : 0, distance: abs(offset))
            return TrackPoint(lat: c.lat, lon: c.lon, t: p.t)
        }
    }

    /// The same places in the opposite order, times still increasing.
    static func reversed(_ points: [TrackPoint]) -> [TrackPoint] {
        zip(points.reversed(), points).map { p, q in TrackPoint(lat: p.lat, lon: p.lon, t: q.t) }
    }

    /// The points joined one after the other, each leg going on from where the last one ended,
    /// `dt` s per point: `legs` are (azimuth, number of 10 m steps).
    static func polyline(from: Coordinate = base, legs: [(azimuth: Double, steps: Int)], dt: Double = 3)
        -> [TrackPoint]
    {
        var here = from
        var points = [TrackPoint(lat: here.lat, lon: here.lon, t: t0)]
        for leg in legs {
            for _ in 0..<leg.steps {
                here = Geodesic.direct(from: here, azimuth: leg.azimuth, distance: 10)
                points.append(TrackPoint(lat: here.lat, lon: here.lon, t: t0 + dt * Double(points.count)))
            }
        }
        return points
    }

    /// `{"name","activity","points"}`.
    static func routeBody(name: String, activity: String, points: [TrackPoint]) -> String {
        let list = points.map { #"{"lat":\#($0.lat),"lon":\#($0.lon),"t":\#($0.t)}"# }.joined(separator: ",")
        return #"{"name":"\#(name)","activity":"\#(activity)","points":[\#(list)]}"#
    }

    /// A JSON array of strings.
    static func idsJSON(_ ids: [String]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// A JSON number as an exact `Double` (Linux's `NSDecimalNumber.doubleValue` can be off by an ulp).
    /// No `is Bool` test: on Linux an `NSNumber` 0 or 1 passes it.
    static func value(_ any: Any?) -> Double? {
        switch any {
        case let n as NSDecimalNumber: Double(n.description) ?? n.doubleValue
        case let d as Double: d
        case let i as Int: Double(i)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
    }

    /// The items of a list (or `similar`) body.
    static func items(_ response: TestResponse) -> [JSONObject] {
        response.json["items"] as? [JSONObject] ?? []
    }

    /// The `routes` of a group body, as ids.
    static func members(_ response: TestResponse) -> [String] {
        response.json["routes"] as? [String] ?? []
    }

    /// The bad ids named by a `422`.
    static func badIDs(_ response: TestResponse) -> [String]? {
        (response.json["error"] as? JSONObject)?["routes"] as? [String]
    }

    /// `actual` is a number within `relative` of `expected` (exactly `expected` when that is 0).
    static func expectClose(
        _ actual: Any?, _ expected: Double, relative: Double = 1e-9, _ what: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let x = value(actual) else {
            Issue.record("\(what): \(String(describing: actual)) is not a number", sourceLocation: sourceLocation)
            return
        }
        #expect(
            abs(x - expected) <= relative * abs(expected), "\(what): \(x) vs \(expected)",
            sourceLocation: sourceLocation)
    }
}

extension TestClientProtocol {
    /// Creates a finished route and returns its id; anything but `201` throws.
    func newGroupRoute(_ token: String, _ name: String, _ points: [TrackPoint], activity: String = "other")
        async throws -> String
    {
        let response = try await send(
            .post, "/v1/routes", token: token,
            json: GroupFixture.routeBody(name: name, activity: activity, points: points))
        guard response.status == .created, let id = response.json["id"] as? String else {
            throw TestFailure("creating route \(name) gave \(response.status): \(response.text.prefix(300))")
        }
        return id
    }

    /// `POST /v1/groups` with `{"name","routes"}`.
    func postGroup(_ token: String, _ name: String, _ routes: [String]) async throws -> TestResponse {
        try await send(
            .post, "/v1/groups", token: token, json: #"{"name":"\#(name)","routes":\#(GroupFixture.idsJSON(routes))}"#)
    }

    /// Creates a group and returns its id; anything but `201` throws.
    func newGroup(_ token: String, _ name: String, _ routes: [String]) async throws -> String {
        let response = try await postGroup(token, name, routes)
        guard response.status == .created, let id = response.json["id"] as? String else {
            throw TestFailure("creating group \(name) gave \(response.status): \(response.text.prefix(300))")
        }
        return id
    }

    /// `GET /v1/groups/{id}/stats`, with `?metric=` when given.
    func groupStats(_ token: String, _ group: String, metric: String? = nil) async throws -> TestResponse {
        try await send(.get, "/v1/groups/\(group)/stats" + (metric.map { "?metric=\($0)" } ?? ""), token: token)
    }

    /// `GET /v1/routes/{id}/similar`, with `?max_m=` when given.
    func similarRoutes(_ token: String, _ route: String, maxM: String? = nil) async throws -> TestResponse {
        try await send(.get, "/v1/routes/\(route)/similar" + (maxM.map { "?max_m=\($0)" } ?? ""), token: token)
    }

    /// `POST /v1/routes/{id}/shares` → `201`, else throws.
    func shareForGroup(_ token: String, _ route: String, to user: String) async throws {
        let response = try await send(.post, "/v1/routes/\(route)/shares", token: token, json: #"{"to":"\#(user)"}"#)
        guard response.status == .created || response.status == .ok else {
            throw TestFailure("sharing \(route) with \(user) gave \(response.status): \(response.text)")
        }
    }

    /// `DELETE /v1/routes/{id}/shares/{user}` → `204`, else throws.
    func unshareForGroup(_ token: String, _ route: String, from user: String) async throws {
        let response = try await send(.delete, "/v1/routes/\(route)/shares/\(user)", token: token)
        guard response.status == .noContent else {
            throw TestFailure("revoking \(route) from \(user) gave \(response.status): \(response.text)")
        }
    }
}
