import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import TestSupport
import Testing

/// Synthetic routes for the segment tests: a point every second along known legs, so that pass
/// times are known exactly.
enum SegmentFixture {
    static let origin = Coordinate(lat: 48.2, lon: 16.37)
    static let t0 = 1_760_000_000.0

    /// A point every second at `speed` m/s along legs (azimuth, metres), from `from` at `t0`.
    static func track(
        _ legs: [(azimuth: Double, metres: Double)], from: Coordinate = origin, speed: Double = 4,
        t0: Double = t0
    ) -> [TrackPoint] {
        SyntheticTrack.walk(legs, from: from, speed: speed, t0: t0)
    }

    /// 600 m east from the origin at 4 m/s: 151 points; the segment is its points 25...125
    /// (100 m to 500 m), passed in exactly 100 s.
    static let straight = track([(90, 600)])
    static var segmentPoints: [Coordinate] { straight[25...125].map(\.coordinate) }

    static func pointsJSON(_ points: [Coordinate]) -> String {
        "[" + points.map { #"{"lat":\#($0.lat),"lon":\#($0.lon)}"# }.joined(separator: ",") + "]"
    }

    static func items(_ response: TestResponse) -> [JSONObject] { response.json["items"] as? [JSONObject] ?? [] }
}

extension TestClientProtocol {
    /// Creates a segment from points and returns its id; anything but `201` throws.
    func newSegment(_ token: String, _ points: [Coordinate] = SegmentFixture.segmentPoints, name: String = "Hill")
        async throws -> String
    {
        let response = try await send(
            .post, "/v1/segments", token: token,
            json: #"{"name":"\#(name)","points":\#(SegmentFixture.pointsJSON(points))}"#)
        guard response.status == .created, let id = response.json["id"] as? String else {
            throw TestFailure("creating a segment gave \(response.status): \(response.text.prefix(300))")
        }
        return id
    }

    /// Creates a finished (or recording) route of `points` and returns its id.
    func newTrack(_ token: String, _ points: [TrackPoint], name: String = "Run", recording: Bool = false)
        async throws -> String
    {
        try await createRoute(token, points, name: name, recording: recording).requiredID()
    }

    func leaderboard(_ token: String, _ segment: String, query: String = "") async throws -> TestResponse {
        try await send(.get, "/v1/segments/\(segment)/leaderboard\(query)", token: token)
    }

    func efforts(_ token: String, _ segment: String, user: String? = nil) async throws -> [JSONObject] {
        let response = try await send(
            .get, "/v1/segments/\(segment)/efforts" + (user.map { "?user=\($0)" } ?? ""), token: token)
        guard response.status == .ok else { throw TestFailure("efforts gave \(response.status): \(response.text)") }
        return SegmentFixture.items(response)
    }
}
