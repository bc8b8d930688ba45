import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// FIT and TCX uploads end to end: the files and the reference values (made outside the project by
/// Garmin's FIT SDK, see scripts/make-fit-references) are Core's test data.
@Suite struct WatchUploadTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RouteRankerCoreTests/Data")

    static func file(_ path: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: data.appendingPathComponent(path)))
    }

    static func reference(_ name: String, _ key: String) throws -> JSONObject {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent(name)))
        return try #require((all as? JSONObject)?[key] as? JSONObject)
    }

    func upload(
        _ client: any TestClientProtocol, _ token: String, _ path: String, type: String, query: String = ""
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/routes\(query)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: type], body: try Self.file(path))
    }

    @Test func aWatchRunUploadsWithItsPointsSportAndName() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let created = try await upload(
                client, token, "fit/device/garmin-fenix-5-run.fit", type: "application/vnd.ant.fit")
            let summary = try client.expectCreated(created)
            #expect(summary["activity"] as? String == "run")
            let name = try #require(summary["name"] as? String)
            #expect(name.hasPrefix("running 20"))
            let id = try #require(summary["id"] as? String)
            let expected = try #require(
                try Self.reference("fit-references.json", "device/garmin-fenix-5-run.fit")["points"] as? [JSONObject])
            let stored = try await client.points(token, id)
            #expect(stored.count == summary[object: "stats"][number: "points"].map(Int.init))
            #expect(stored.count <= expected.count && !stored.isEmpty)
            let first = try #require(expected.first)
            #expect(stored.first?.lat == number(first["lat"]) && stored.first?.lon == number(first["lon"]))
            #expect(stored.first?.t == number(first["t"]))

            let named = try await upload(
                client, token, "fit/synthetic/chained.fit", type: "application/vnd.ant.fit",
                query: "?name=Two+files&activity=ride")
            let chained = try client.expectCreated(named)
            #expect(chained["name"] as? String == "Two files" && chained["activity"] as? String == "ride")
        }
    }

    @Test func aDamagedFITFileIs400WithTheOffsetAndStoresNothing() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            for path in ["fit/damaged/truncated.fit", "fit/damaged/bad-data-crc.fit", "fit/damaged/not-fit.fit"] {
                let response = try await upload(client, token, path, type: "application/vnd.ant.fit")
                #expect(response.status == .badRequest && response.errorCode == "invalid_request", "\(path)")
                let error = try #require(response.json["error"] as? JSONObject)
                let expected = try Self.reference(
                    "fit-references.json", path.replacingOccurrences(of: "fit/", with: ""))
                #expect(number(error["offset"]) == number(expected["offset"]), "\(path): \(response.text)")
            }
            #expect(try await client.routeTotal(token) == 0)
            let partial = try await upload(
                client, token, "fit/damaged/bad-data-crc.fit", type: "application/vnd.ant.fit", query: "?partial=true")
            #expect(partial.status == .created)
            let settings = try await upload(
                client, token, "fit/synthetic/settings.fit", type: "application/vnd.ant.fit")
            #expect(settings.status == .unprocessableContent && settings.errorCode == "unprocessable")
            // A malformed `partial` is refused whatever the body (found by Schemathesis: `?partial=`).
            for query in ["?partial=", "?partial=yes"] {
                let bad = try await client.send(.post, "/v1/routes" + query, token: token, json: #"{"name":"x"}"#)
                #expect(bad.status == .badRequest && bad.text.contains("partial"), "\(query)")
            }
            #expect(try await client.routeTotal(token) == 1)
        }
    }

    @Test func tcxUploadsAndItsErrors() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let type = "application/vnd.garmin.tcx+xml"
            let created = try client.expectCreated(try await upload(client, token, "tcx/running.tcx", type: type))
            #expect(created["activity"] as? String == "run")
            // Its second point is 14 m after the first in 1 s: a spike for a run (over 12 m/s), dropped.
            #expect(created[object: "stats"][number: "points"] == 1)
            let noted = try client.expectCreated(
                try await upload(client, token, "tcx/activity_metadata.tcx", type: type))
            #expect(noted["name"] as? String == "Morning run")
            let missing = try await upload(client, token, "tcx/no_time.tcx", type: type)
            #expect(missing.status == .badRequest)
            #expect(number((missing.json["error"] as? JSONObject)?["index"]) == 1)
            let id = try #require(created["id"] as? String)
            let appended = try await client.execute(
                uri: "/v1/routes/\(id)/points", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: type], body: try Self.file("tcx/running.tcx")
            )
            #expect(appended.status == .unsupportedMediaType || appended.status == .conflict)
        }
    }
}
