import Foundation
import RouteRankerCore
import Testing

/// `routeranker segment-efforts FILE --segment SEGMENT.geojson`: Core's matching, offline.
@Suite struct SegmentEffortsCommandTests {
    /// A point every second at 4 m/s along legs (azimuth, metres).
    static func track(_ legs: [(Double, Double)]) -> [TrackPoint] {
        var here = Coordinate(lat: 46.05, lon: 14.5)
        var points = [TrackPoint(lat: here.lat, lon: here.lon, t: 1_700_000_000)]
        for (azimuth, metres) in legs {
            for _ in 0..<Int(metres / 4) {
                here = Geodesic.direct(from: here, azimuth: azimuth, distance: 4)
                points.append(TrackPoint(lat: here.lat, lon: here.lon, t: points[points.count - 1].t + 1))
            }
        }
        return points
    }

    static func ndjson(_ points: [TrackPoint]) -> String {
        points.map { #"{"lat":\#($0.lat),"lon":\#($0.lon),"t":\#($0.t)}"# + "\n" }.joined()
    }

    static func lineString(_ points: some Collection<TrackPoint>) -> String {
        let positions = points.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",")
        return #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[\#(positions)]}}"#
    }

    @Test func twoLapsGiveTwoEffortsAndTheOtherDirectionNone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rr-seg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lap = [(90.0, 200.0), (0.0, 100.0), (270.0, 200.0), (180.0, 100.0)]  // 150 points a lap
        let route = Self.track(lap + lap)
        let files = [
            "route.ndjson": Self.ndjson(route),
            "side.geojson": Self.lineString(route[10...40]),  // 40 m to 160 m along the first side
            "reversed.geojson": Self.lineString(route[10...40].reversed()),
            "bad.geojson": #"{"type":"Point","coordinates":[14.5,46.05]}"#,
        ]
        for (name, body) in files {
            try Data(body.utf8).write(to: directory.appendingPathComponent(name))
        }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        let result = try await RouteRankerCommand.run([
            "segment-efforts", path("route.ndjson"), "--segment", path("side.geojson"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let efforts = try #require(output["efforts"] as? [[String: Any]])
        #expect(efforts.map { $0["start_index"] as? Int } == [10, 160])
        #expect(efforts.map { $0["end_index"] as? Int } == [40, 190])
        #expect(efforts.map { $0["elapsed_s"] as? Double } == [30, 30])
        #expect(efforts.map { $0["rank"] as? Int } == [1, 1])
        #expect(efforts.first?["started_at"] as? String == RFC3339.formatMilliseconds(1_700_000_010))
        #expect(output["points"] as? Int == route.count)

        let reversed = try await RouteRankerCommand.run([
            "segment-efforts", path("route.ndjson"), "--segment", path("reversed.geojson"),
        ])
        #expect(reversed.status == 0)
        let none = try JSONSerialization.jsonObject(with: Data(reversed.standardOutput.utf8)) as? [String: Any]
        #expect((none?["efforts"] as? [Any])?.isEmpty == true)

        let bad = try await RouteRankerCommand.run([
            "segment-efforts", path("route.ndjson"), "--segment", path("bad.geojson"),
        ])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("LineString"))
    }
}
