import Foundation
import HummingbirdTesting
import Logging
import Mongo
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import TestSupport
import Testing

@testable import RouteRankerServer

/// The share list inside the route document (`RouteRecord.readers`), which every visibility check
/// reads, and `shares`, which the lists draw from: what a share or revocation cut short between its
/// two writes leaves (each half-state is written directly, as the crash would leave it), and the
/// migration of shares made before route documents held their readers.
@Suite struct ShareReadersTests {
    typealias F = SharingFixture

    static func readers(_ database: MongoDatabase, _ route: String) async throws -> [String]? {
        try await database.collection("routes").findOne(["_id": .string(route)])?.array("readers")?
            .compactMap(\.stringValue)
    }

    static func inboxRoutes(_ client: any TestClientProtocol, _ token: String) async throws -> [String] {
        F.ids(try await client.send(.get, "/v1/shares", token: token), key: "route")
    }

    @Test func sharingAddsReadersInOrderAndRevokingRemovesThem() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob", "cy"])
            _ = try await client.register("bob")
            _ = try await client.register("cy")
            let route = try await client.newSharedRoute(ada)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            #expect(try await client.shareRoute(ada, route, to: "cy").status == .created)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .ok)
            #expect(try await Self.readers(database, route) == ["bob", "cy"])
            let summary = try await client.send(.get, "/v1/routes/\(route)", token: ada)
            #expect(summary.json["shared_with"] as? [String] == ["cy", "bob"])

            #expect(try await client.send(.delete, "/v1/routes/\(route)/shares/bob", token: ada).status == .noContent)
            #expect(try await Self.readers(database, route) == ["cy"])
            #expect(try await client.send(.delete, "/v1/routes/\(route)/shares/bob", token: ada).status == .notFound)
        }
    }

    @Test func aRevocationCutShortHidesTheRouteFromListsAndItsRetryHidesItEverywhere() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let route = try await client.newSharedRoute(ada)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            // The first write of a revocation, and then the server died: the owner got no answer.
            let id = ShareRepository.id(route: route, to: "bob")
            _ = try await database.collection("shares").deleteOne(["_id": .string(id)])
            #expect(try await Self.inboxRoutes(client, bob).isEmpty)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: bob).status == .ok)

            #expect(try await client.send(.delete, "/v1/routes/\(route)/shares/bob", token: ada).status == .noContent)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: bob).status == .notFound)
            #expect(try await client.send(.get, "/v1/routes/\(route)/points", token: bob).status == .notFound)
            #expect(try await Self.readers(database, route) == [])
        }
    }

    @Test func aShareCutShortIsNotListedUntilItsRetry() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let route = try await client.newSharedRoute(ada)
            // The first write of a share, and then the server died.
            _ = try await database.collection("routes").updateOne(
                filter: ["_id": .string(route)], update: ["$addToSet": ["readers": "bob"]])
            #expect(try await Self.inboxRoutes(client, bob).isEmpty)

            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            #expect(try await Self.inboxRoutes(client, bob) == [route])
            #expect(try await Self.readers(database, route) == ["bob"])
        }
    }

    @Test func aShareWithoutItsReaderGrantsNothingUntilTheMigrationAddsIt() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob", "cy"])
            let bob = try await client.register("bob")
            let cy = try await client.register("cy")
            let route = try await client.newSharedRoute(ada)
            let other = try await client.newSharedRoute(ada)
            // Shares as a server from before `readers` wrote them, in a database it had started on.
            _ = try await database.collection("migrations").deleteOne(["_id": "route_readers"])
            let shares = database.collection("shares")
            for (to, ms) in [("cy", 1_000.0), ("bob", 2_000.0)] {
                try await shares.insertOne([
                    "_id": .string(ShareRepository.id(route: route, to: to)), "route": .string(route),
                    "owner": "ada", "to": .string(to), "shared_at": .date(Date(timeIntervalSince1970: ms)),
                ])
            }
            for token in [bob, cy] {
                #expect(try await client.send(.get, "/v1/routes/\(route)", token: token).status == .notFound)
                #expect(try await Self.inboxRoutes(client, token).isEmpty)
            }

            let repository = ShareRepository(database: database, clock: .system)
            try await repository.addMissingReaders()
            #expect(try await Self.readers(database, route) == ["cy", "bob"])
            #expect(try await Self.readers(database, other) == nil)
            for token in [bob, cy] {
                #expect(try await client.send(.get, "/v1/routes/\(route)", token: token).status == .ok)
                #expect(try await Self.inboxRoutes(client, token) == [route])
            }
            // Once per database: a share written without its reader after that grants nothing.
            try await shares.insertOne([
                "_id": .string(ShareRepository.id(route: other, to: "bob")), "route": .string(other),
                "owner": "ada", "to": "bob", "shared_at": .date(Date()),
            ])
            try await repository.addMissingReaders()
            #expect(try await Self.readers(database, other) == nil)
        }
    }

    /// What a share and a revocation of the same recipient racing can leave (the reader pulled,
    /// then the share written): a share whose route does not list its recipient. Every list drawn
    /// from `shares` keeps only what the route confirms.
    @Test func aShareTheRouteDoesNotConfirmShowsInNoList() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let segment = try await client.newSegment(bob)
            let route = try await client.newTrack(ada, SegmentFixture.straight)
            let anchor = try await client.newTrack(bob, SegmentFixture.straight)
            try await database.collection("shares").insertOne([
                "_id": .string(ShareRepository.id(route: route, to: "bob")), "route": .string(route),
                "owner": "ada", "to": "bob", "shared_at": .date(Date()),
            ])
            let origin = SegmentFixture.origin
            let near = try await client.send(
                .get, "/v1/routes?near=\(origin.lat),\(origin.lon)&radius_m=1000", token: bob)
            #expect(F.ids(near) == [anchor])
            let similar = try await client.send(.get, "/v1/routes/\(anchor)/similar", token: bob)
            #expect(similar.status == .ok)
            #expect(!similar.text.contains(route))
            let board = try await client.leaderboard(bob, segment)
            #expect(SegmentFixture.items(board).compactMap { $0["route"] as? String } == [anchor])
            #expect(try await Self.inboxRoutes(client, bob).isEmpty)
            let list = try await client.send(.get, "/v1/routes/\(route)/shares", token: ada)
            #expect(F.items(list).isEmpty)
            #expect(list.json["total"] as? Int == 0)

            // Shared properly, it shows everywhere.
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .ok)
            let board2 = try await client.leaderboard(bob, segment)
            #expect(Set(SegmentFixture.items(board2).compactMap { $0["route"] as? String }) == [anchor, route])
            let near2 = try await client.send(
                .get, "/v1/routes?near=\(origin.lat),\(origin.lon)&radius_m=1000", token: bob)
            #expect(Set(F.ids(near2)) == [anchor, route])
            #expect(try await client.send(.get, "/v1/routes/\(anchor)/similar", token: bob).text.contains(route))
        }
    }

    /// A change that leaves the version alone (a reader pulled) replaces an append of the same
    /// version still waiting in a follower's mailbox.
    @Test func aLaterChangeOfTheSameVersionWinsInTheMailbox() async throws {
        var route = StoredRoute(
            new: RouteRecord(
                id: "6740aaaaaaaaaaaaaaaaaaaa", owner: "ada", name: "Loop", activity: .run, state: .recording,
                createdAt: Date(), annotations: [], accumulator: StatsAccumulator(activity: .run), version: 3,
                readers: ["bob"]))
        let mailbox = LiveMailbox(route: route.id, owner: "ada", link: nil, viewer: "bob")
        mailbox.post(LiveNews(latest: route))
        route.readers = []
        mailbox.post(LiveNews(latest: route))
        var older = route
        older.version = 2
        older.readers = ["bob"]
        mailbox.post(LiveNews(latest: older))
        let news = await mailbox.take(timeout: .milliseconds(10))
        #expect(news.latest?.version == 3)
        #expect(news.latest?.readers == [])
    }
}

// Timed against the contract's second, so it runs with the live-following tests, on its own
// (`scripts/test`), where the rest of the suite's load cannot skew the clock.
extension LiveFollowingTests {
    @Test func aFollowerWhoseReaderIsRemovedFromTheRouteGetsGone() async throws {
        try await withAppAndDatabase(.live) { client, database in
            let port = try #require(client.port)
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let route = try await client.newSharedRoute(ada, recording: true)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            let follower = try LiveFollowingTests.follow(port, "/v1/routes/\(route)/live", token: bob)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 30 })
            // Only the route document changes (the share is left): its change alone ends the stream.
            _ = try await database.collection("routes").updateOne(
                filter: ["_id": .string(route)], update: ["$pull": ["readers": "bob"]])
            #expect(await follower.wait(seconds: 1) { $0.ended })
            #expect(follower.events.last?.event == "gone")
        }
    }
}
