import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import RouteRankerCore
import Synchronization
import TestSupport
import Testing

@testable import RouteRankerServer
@testable import RouteRankerStorage

/// Leaving (`DELETE /v1/users/me?confirm=`): the account and all it owns are gone, from every
/// collection, including what other people hold of it; the id can be registered again.
@Suite struct LeavingTests {
    /// A distinctive id, so that a dump of the database can be searched for it.
    static let leaver = "zz-leaver-7"

    /// Everything a person can own or leave in other people's data.
    static func scene(_ client: any TestClientProtocol) async throws -> (me: String, other: String, route: String) {
        let other = try await client.register("other", name: "Other", friends: [leaver])
        let me = try await client.register(leaver, name: "Leaving", friends: ["other"])
        let run = RecordsTests.run(200)
        let route = try #require(try await client.createRoute(me, run, name: "Mine", activity: "run")["id"] as? String)
        _ = try await client.createRoute(
            me, RecordsTests.run(50, t0: Fixture.t0 + 86_400), activity: "run", recording: true)
        #expect(try await client.shareRoute(me, route, to: "other").status == .created)
        _ = try await client.newLink(me, route)
        #expect(
            try await client.send(.post, "/v1/groups", token: me, json: #"{"name":"G","routes":["\#(route)"]}"#).status
                == .created)
        #expect(try await client.putZones(me, #"[{"lat":52.5,"lon":13.4,"radius_m":200}]"#).status == .ok)
        let device = try await client.createDevice(me, owner: leaver)
        #expect(try await client.ownTracksPoint(device, lat: 52.6, lon: 13.5, tst: 1_764_000_000).status == .ok)
        let keyed = try await client.send(
            .post, "/v1/routes", token: me, json: Fixture.jsonBody(RecordsTests.run(20, t0: Fixture.t0 + 9 * 86_400)),
            headers: [HTTPField.Name("Idempotency-Key")!: "k1"])
        #expect(keyed.status == .created)
        // What other people hold: a share to me, my route in their group, my effort on their segment.
        let theirs = try #require(
            try await client.createRoute(other, run, name: "Theirs", activity: "run")["id"] as? String)
        #expect(try await client.shareRoute(other, theirs, to: leaver).status == .created)
        #expect(
            try await client.send(
                .post, "/v1/groups", token: other, json: #"{"name":"Theirs","routes":["\#(route)","\#(theirs)"]}"#
            )
            .status == .created)
        let segment = try await client.send(
            .post, "/v1/segments", token: other, json: #"{"name":"S","route":"\#(route)","from":10,"to":150}"#)
        #expect(segment.status == .created)
        _ = try await client.send(
            .post, "/v1/segments", token: me, json: #"{"name":"Mine","route":"\#(route)","from":20,"to":120}"#)
        // An import (its job, its results; its archive is removed once it is done).
        let job = try await ImportsTests.importArchive(client, me, try ImportsTests.archive())
        #expect(job["state"] as? String == "done")
        return (me, other, route)
    }

    @Test func leavingRemovesTheAccountAndAllItOwnsFromEveryCollection() async throws {
        let database = TestEnvironment.uniqueDatabaseName("leaving")
        let tokens = Mutex<(me: String, other: String)>(("", ""))
        try await withApp(database: database) { client in
            let scene = try await Self.scene(client)
            tokens.withLock { $0 = (scene.me, scene.other) }
            let segments = try await client.send(.get, "/v1/segments?near=52.5,13.4&radius_m=20000", token: scene.other)
            let theirSegment = try #require(
                (segments.json["items"] as? [JSONObject])?.first { $0["name"] as? String == "S" })
            let segmentID = try #require(theirSegment["id"] as? String)
            let board = try await client.send(.get, "/v1/segments/\(segmentID)/leaderboard", token: scene.other)
            #expect((board.json["items"] as? [JSONObject])?.count == 2)  // mine and theirs

            for bad in ["", "?confirm=other", "?confirm=ZZ-LEAVER-7"] {
                #expect(try await client.send(.delete, "/v1/users/me\(bad)", token: scene.me).status == .badRequest)
            }
            #expect(
                try await client.send(.delete, "/v1/users/me?confirm=\(Self.leaver)", token: scene.me).status
                    == .noContent)
            #expect(try await client.send(.get, "/v1/users/me", token: scene.me).status == .unauthorized)

            // Other people's views lost me.
            let other = try await client.send(.get, "/v1/users/me", token: scene.other)
            #expect(other.json["friends"] as? [String] == [])
            #expect(try await client.send(.get, "/v1/shares", token: scene.other).json["total"] as? Int == 0)
            let groups = try await client.send(.get, "/v1/groups", token: scene.other)
            let group = try #require((groups.json["items"] as? [JSONObject])?.first)
            #expect((group["routes"] as? [String])?.count == 1)
            let after = try await client.send(.get, "/v1/segments/\(segmentID)/leaderboard", token: scene.other)
            let people = (after.json["items"] as? [JSONObject])?.compactMap {
                ($0["user"] as? JSONObject)?["id"] as? String
            }
            #expect(people == ["other"])
            #expect(try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.other).status == .notFound)
        }
        // No collection holds anything of mine: a collection added later cannot be forgotten.
        let dump = try await SecretsAtRestTests.dump(database)
        #expect(
            !dump.contains(Self.leaver), "\(dump.split(separator: "\n").filter { $0.contains(Self.leaver) }.prefix(5))")
        #expect(dump.contains("== best_efforts") && dump.contains("== users"))

        // The id can be registered again, and nothing of the old account shows.
        try await withApp(database: database) { client in
            let again = try await client.register(Self.leaver)
            #expect(try await client.send(.get, "/v1/routes", token: again).json["total"] as? Int == 0)
            #expect(try await client.send(.get, "/v1/shares", token: again).json["total"] as? Int == 0)
            #expect(try await client.send(.get, "/v1/devices", token: again).json["total"] as? Int == 0)
            #expect(try await client.send(.get, "/v1/groups", token: again).json["total"] as? Int == 0)
            let records = try await client.send(.get, "/v1/users/me/records", token: again)
            #expect((records.json["items"] as? [Any])?.isEmpty == true)
            let old = tokens.withLock { $0.me }
            #expect(try await client.send(.get, "/v1/users/me", token: old).status == .unauthorized)
        }
    }

    /// A process that dies right after marking the account leaves a tombstone; another process
    /// finishes the deletion once the lease has run out, with no request.
    @Test func aDeletionLeftHalfDoneIsFinishedByTheSweep() async throws {
        try await withAppAndDatabase { client, database in
            let scene = try await Self.scene(client)
            let storage = Storage(database: database, clock: .system)
            // Marked as a process would, with a lease that has already run out (it died).
            #expect(try await storage.users.markLeaving(id: Self.leaver, now: Date().addingTimeInterval(-60)))
            #expect(try await client.send(.get, "/v1/users/me", token: scene.me).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.other).status == .ok)

            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let controllers = Controllers(
                storage: storage, hub: LiveHub(feeds: storage.changeFeeds, logger: logger), clock: .system,
                similarCellBudget: 1_000_000, registry: .init(), openAPIDocument: [], publicURL: nil,
                sweepInterval: .seconds(3600), logger: logger)
            try await controllers.pendingRemovals.sweepOnce()
            #expect(try await storage.users.find(id: Self.leaver) == nil)
            #expect(try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.other).status == .notFound)
            #expect(try await storage.routes.all(owner: Self.leaver).isEmpty)
        }
    }
}
