import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RouteRankerCore
import TestSupport
import Testing
import ZipArchive

/// Imports (API.md "Moving in, moving out, leaving") through the API, worked through by the
/// app's own `ImportWorker`: a Strava-like archive with real device files, gzip'd entries, its
/// `activities.csv`, a damaged file and names to refuse; re-imported, it creates nothing.
@Suite(.serialized) struct ImportsTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RouteRankerCoreTests/Data")

    /// A zip written by Python's `zipfile` (an independent writer), with gzip'd members by its `gzip`.
    static func archive() throws -> Data {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = #"""
            import gzip, sys, zipfile
            data, out = sys.argv[1], sys.argv[2]
            gpx = open(f"{data}/gpxpy/cerknicko-jezero.gpx", "rb").read()
            fit = open(f"{data}/fit/device/garmin-fenix-5-run.fit", "rb").read()
            tcx = open(f"{data}/tcx/running.tcx", "rb").read()
            csv = ('Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Filename,Distance\r\n'
                   '1,"Aug 5, 2010",Lake loop,Run,3600,10.2,activities/1.gpx.gz,10200\r\n'
                   '2,"Jan 1, 2020","Fenix, ""the"" ride",Ride,100,1,activities/2.fit,1000\r\n')
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("activities.csv", csv)
                z.writestr("activities/1.gpx.gz", gzip.compress(gpx))
                z.writestr("activities/2.fit", fit)
                z.writestr("activities/3.tcx", b"\n   " + tcx)
                z.writestr("activities/4.gpx", b"<gpx><trk><trkseg><trkpt lat='x'></trkseg></trk></gpx>")
                z.writestr("media/photo.jpg", b"\xff\xd8\xff")
                z.writestr("../evil.gpx", gpx)
                z.writestr("profile.json", b"{}")
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, data.path, out.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("python3 could not write the archive") }
        return try Data(contentsOf: out)
    }

    /// Uploads `archive` and waits (up to a minute) until the job is done or failed.
    static func importArchive(_ client: any TestClientProtocol, _ token: String, _ archive: Data) async throws
        -> JSONObject
    {
        let response = try await client.execute(
            uri: "/v1/imports", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/zip"],
            body: ByteBuffer(bytes: archive))
        #expect(response.status == .accepted)
        let id = try #require(response.json["id"] as? String)
        #expect(response.headers[.location] == "/v1/imports/\(id)")
        for _ in 0..<3000 {
            let job = try await client.send(.get, "/v1/imports/\(id)", token: token).json
            if let state = job["state"] as? String, state == "done" || state == "failed" { return job }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("the import did not finish within a minute")
    }

    @Test func anArchiveBecomesRoutesAsTheirUploadsWouldAndASecondImportAddsNothing() async throws {
        try await withApp { client in
            let me = try await client.register("importer")
            let archive = try Self.archive()
            let job = try await Self.importArchive(client, me, archive)
            #expect(job["state"] as? String == "done")
            #expect(job["files_total"] as? Int == 8 && job["files_done"] as? Int == 8)
            let counts = try #require(job["counts"] as? [String: Int])
            #expect(counts == ["imported": 3, "duplicates": 0, "failed": 1, "skipped": 4])

            let id = try #require(job["id"] as? String)
            let files = try await client.send(.get, "/v1/imports/\(id)/files", token: me)
            let items = try #require(files.json["items"] as? [JSONObject])
            #expect(
                items.map { $0["file"] as? String } == [
                    "activities.csv", "activities/1.gpx.gz", "activities/2.fit", "activities/3.tcx", "activities/4.gpx",
                    "media/photo.jpg", "../evil.gpx", "profile.json",
                ])
            #expect(
                items.map { $0["status"] as? String } == [
                    "skipped", "imported", "imported", "imported", "failed", "skipped", "skipped", "skipped",
                ])
            let failed = try #require(items[4]["error"] as? JSONObject)
            #expect(failed["code"] as? String == "invalid_request")
            // Names and types from activities.csv (its header repeats "Distance"; quoting kept).
            let lake = try await client.summary(me, try #require(items[1]["route"] as? String))
            #expect(lake["name"] as? String == "Lake loop" && lake["activity"] as? String == "run")
            #expect(lake["state"] as? String == "finished")
            let fenix = try await client.summary(me, try #require(items[2]["route"] as? String))
            #expect(fenix["name"] as? String == #"Fenix, "the" ride"# && fenix["activity"] as? String == "ride")
            // A TCX with white space before its declaration reads as its upload would.
            let tcx = try await client.summary(me, try #require(items[3]["route"] as? String))
            #expect((tcx["stats"] as? JSONObject)?["points"] as? Int ?? 0 > 0)
            // Imported routes get their best efforts at once.
            let efforts = try await client.send(
                .get, "/v1/routes/\(lake["id"] as? String ?? "")/best_efforts", token: me)
            #expect((efforts.json["items"] as? [Any])?.isEmpty == false)
            #expect(try await client.routeTotal(me) == 3)

            // The same archive again: every route file is a duplicate of the route it repeats.
            let again = try await Self.importArchive(client, me, archive)
            #expect((again["counts"] as? [String: Int])?["duplicates"] == 3)
            #expect((again["counts"] as? [String: Int])?["imported"] == 0)
            #expect(try await client.routeTotal(me) == 3)
            let againFiles = try await client.send(.get, "/v1/imports/\(again["id"] as? String ?? "")/files", token: me)
            let duplicate = try #require((againFiles.json["items"] as? [JSONObject])?[1])
            #expect(
                duplicate["status"] as? String == "duplicate" && duplicate["route"] as? String == lake["id"] as? String)

            let list = try await client.send(.get, "/v1/imports?limit=1", token: me)
            #expect(list.json["total"] as? Int == 2)
            #expect((list.json["items"] as? [JSONObject])?.first?["id"] as? String == again["id"] as? String)
            // Someone else's import is the same 404 as none.
            let other = try await client.register("other")
            #expect(try await client.send(.get, "/v1/imports/\(id)", token: other).status == .notFound)
            #expect(try await client.send(.get, "/v1/imports/\(id)/files", token: other).status == .notFound)
        }
    }

    @Test func whatIsNotAZipIsRefusedAtOnceAndLeavesNothing() async throws {
        try await withApp { client in
            let me = try await client.register("importer")
            let garbage = try await client.execute(
                uri: "/v1/imports", method: .post,
                headers: [.authorization: "Bearer \(me)", .contentType: "application/zip"],
                body: ByteBuffer(string: String(repeating: "not a zip ", count: 1000)))
            #expect(garbage.status == .badRequest)
            let json = try await client.execute(
                uri: "/v1/imports", method: .post,
                headers: [.authorization: "Bearer \(me)", .contentType: "application/json"],
                body: ByteBuffer(string: "{}"))
            #expect(json.status == .unsupportedMediaType)
            #expect(try await client.send(.get, "/v1/imports", token: me).json["total"] as? Int == 0)
        }
    }
}

/// Moving out: the export, read back with this project's zip reader (libarchive) and GPX reader,
/// and searched for every secret the account has.
@Suite struct ExportTests {
    @Test func theExportHoldsEverythingIOwnAndNoSecret() async throws {
        try await withApp { client in
            let me = try await client.register("mover", friends: ["friend"])
            let friend = try await client.register("friend", friends: ["mover"])
            let first = try await client.createRoute(me, RecordsTests.run(300), name: "First", activity: "run")
            let firstID = try #require(first["id"] as? String)
            let secondID = try #require(
                try await client.createRoute(me, RecordsTests.run(80, t0: Fixture.t0 + 86_400), name: "Second")["id"]
                    as? String)
            let link = try await client.newLink(me, firstID)
            #expect(try await client.shareRoute(me, firstID, to: "friend").status == .created)
            let theirs = try #require(
                try await client.createRoute(friend, RecordsTests.run(50), name: "Theirs")["id"] as? String)
            #expect(try await client.shareRoute(friend, theirs, to: "mover").status == .created)
            _ = try await client.send(
                .post, "/v1/groups", token: me, json: #"{"name":"Both","routes":["\#(firstID)","\#(theirs)"]}"#)
            let device = try await client.createDevice(me, owner: "mover")
            // The friend stops sharing: the group no longer shows their route.
            #expect(
                try await client.send(.delete, "/v1/routes/\(theirs)/shares/mover", token: friend).status == .noContent)

            let response = try await client.send(.get, "/v1/users/me/export", token: me)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition] == #"attachment; filename="routeranker-mover.zip""#)
            let bytes = [UInt8](response.body.readableBytesView)
            let reader = try ZipReader(source: DataSource(bytes), maxEntryBytes: 64 << 20)
            var files: [String: [UInt8]] = [:]
            while let entry = try reader.nextEntry() { files[entry.name] = try reader.readAll() }
            #expect(
                Set(files.keys) == [
                    "account.json", "routes.json", "groups.json", "segments.json", "devices.json",
                    "routes/\(firstID).gpx", "routes/\(secondID).gpx",
                ])
            let account = try #require(
                try JSONSerialization.jsonObject(with: Data(files["account.json"]!)) as? JSONObject)
            #expect(account["id"] as? String == "mover" && account["friends"] as? [String] == ["friend"])
            let routes = try #require(
                try JSONSerialization.jsonObject(with: Data(files["routes.json"]!)) as? [JSONObject])
            #expect(routes.count == 2)
            let exported = try #require(routes.first { $0["id"] as? String == firstID })
            #expect(exported["shared_with"] as? [String] == ["friend"])
            #expect((exported["links"] as? [JSONObject])?.map { $0["id"] as? String } == [link.id])
            let gpx = try GPXReader.read(Data(files["routes/\(firstID).gpx"]!))
            #expect(gpx.points.count == (first["stats"] as? JSONObject)?["points"] as? Int)
            let groups = try #require(
                try JSONSerialization.jsonObject(with: Data(files["groups.json"]!)) as? [JSONObject])
            #expect(groups.first?["routes"] as? [String] == [firstID])
            let devices = try #require(
                try JSONSerialization.jsonObject(with: Data(files["devices.json"]!)) as? [JSONObject])
            #expect(devices.count == 1 && devices.first?["key"] == nil)
            // No secret anywhere: not my token, not the link's secret, not the device key.
            let everything = files.values.map { String(decoding: $0, as: UTF8.self) }.joined()
            for secret in [me, link.secret, device.key, String(device.key.split(separator: "~").last ?? "")] {
                #expect(!everything.contains(secret))
            }
            #expect(!everything.contains("Theirs"))
        }
    }
}
