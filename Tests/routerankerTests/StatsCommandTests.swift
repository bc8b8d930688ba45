import Foundation
import Testing

/// `routeranker stats FILE`: the same parsing and statistics as the server, offline.
@Suite struct StatsCommandTests {
    func stats(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await RouteRankerCommand.run(["stats"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test func aGPXFileGivesTheGeodesicDistance() async throws {
        let stats = try await stats([
            RouteRankerCommand.testData("gpxpy/around-visnjan-with-car.gpx"), "--activity", "drive",
        ])
        // GeographicLib gives 2736.000845189884 for these points (see the Core tests' references).
        let distance = try #require(stats["distance_m"] as? Double)
        #expect(abs(distance - 2736.000845191568) < 1e-6)
    }

    @Test func everyFormatIsReadByContent() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rr-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = [
            "a.txt": "52.52,13.405,1763800000#52.5201,13.4052,1763800010,34#",
            "b.ndjson": #"{"lat":52.52,"lon":13.405,"t":1763800000}"# + "\n"
                + #"{"lat":52.5201,"lon":13.4052,"t":1763800010,"ele":34}"# + "\n",
            "c.json":
                #"{"name":"x","points":[{"lat":52.5201,"lon":13.4052,"t":1763800010},{"lat":52.52,"lon":13.405,"t":1763800000}]}"#,
        ]
        for (name, body) in files {
            let path = directory.appendingPathComponent(name).path
            try Data(body.utf8).write(to: URL(fileURLWithPath: path))
            let stats = try await stats([path])
            #expect(stats["points"] as? Int == 2, "\(name)")
            #expect(stats["duration_s"] as? Double == 10, "\(name)")
        }
        for path in ["fit/device/garmin-fenix-5-run.fit", "tcx/running.tcx"] {
            let stats = try await stats([RouteRankerCommand.testData(path)])
            #expect((stats["points"] as? Int ?? 0) > 0, "\(path)")
        }
    }

    @Test func badInputIsAClearErrorAndAFailingStatus() async throws {
        let result = try await RouteRankerCommand.run([
            "stats", RouteRankerCommand.testData("fit/damaged/truncated.fit"),
        ])
        #expect(result.status != 0)
        #expect(result.standardError.contains("truncated.fit"))
        #expect(result.standardError.contains("byte"))
        let missing = try await RouteRankerCommand.run(["stats", "/nonexistent/route.gpx"])
        #expect(missing.status != 0)
        let activity = try await RouteRankerCommand.run([
            "stats", RouteRankerCommand.testData("tcx/running.tcx"), "--activity", "swim",
        ])
        #expect(activity.status != 0 && activity.standardError.contains("--activity"))
    }
}
