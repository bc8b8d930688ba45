import Foundation
import Logging
import Mongo
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import TestSupport
import Testing

@testable import RouteRankerServer

/// The hub's change stream is open only while someone follows: it opens on the first follower,
/// tells that follower to read its route again once the stream is accepted, delivers commits, and
/// closes `linger` after the last follower leaves unless someone follows again meanwhile. The
/// linger's clock is advanced by hand (`ManualSleep`): nothing here waits for time to pass.
@Suite struct LiveHubTests {
    @Test func theStreamIsOpenOnlyWhileSomeoneFollows() async throws {
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: Logger(label: "test"), defaultPoolSize: 2)
        defer { mongo.shutdown() }
        let database = MongoDatabase(client: mongo, name: TestEnvironment.uniqueDatabaseName("hub"))
        var logger = Logger(label: "routeranker-test")
        logger.logLevel = .warning
        let clock = ManualSleep()
        let hub = LiveHub(
            feeds: RouteChangeFeeds(database: database), logger: logger, linger: .seconds(30), sleep: clock.sleep)
        let service = Task { try await hub.run() }
        defer { service.cancel() }

        // Not following anything: no stream, even while running.
        while !hub.isRunning { await Task.yield() }
        #expect(!hub.isWatching)

        let route = StoredRoute(
            new: RouteRecord(
                id: "6740bbbbbbbbbbbbbbbbbbbb", owner: "ada", name: "Loop", activity: .run, state: .recording,
                createdAt: Date(), annotations: [], accumulator: StatsAccumulator(activity: .run), version: 1))
        let routes = RouteRepository(database: database)
        try await routes.commit(route, over: 0)
        /// A new follower opens the stream, is told to read again once the stream is accepted (it
        /// may have missed commits), then gets the next commit through it.
        var stored = route
        func followAndCommit() async throws -> LiveMailbox {
            let mailbox = hub.subscribe(route: route.id, owner: "ada", link: nil, viewer: nil)
            #expect(hub.isWatching)
            #expect(await mailbox.take(timeout: .seconds(5)).recheck)
            var next = stored
            next.version += 1
            try await routes.commit(next, over: stored.version, stored: stored)
            stored = next
            #expect(await mailbox.take(timeout: .seconds(5)).latest?.version == next.version)
            return mailbox
        }
        let mailbox = try await followAndCommit()

        // The last follower leaves: still open within the linger, and a new follower keeps it open
        // past the end of that linger.
        let firstLinger = try #require(hub.unsubscribe(mailbox))
        #expect(hub.isWatching)
        let again = hub.subscribe(route: route.id, owner: "ada", link: nil, viewer: nil)
        await clock.advance()
        await firstLinger.value
        #expect(hub.isWatching)
        // Once that one leaves too, the stream closes when its linger is over, not before.
        let secondLinger = try #require(hub.unsubscribe(again))
        #expect(hub.isWatching)
        await clock.advance()
        await secondLinger.value
        #expect(!hub.isWatching)

        // Following again opens a new stream, which delivers as the first did.
        hub.unsubscribe(try await followAndCommit())
    }

    /// A follower who arrived before the service ran gets the stream when it starts.
    @Test func aFollowerFromBeforeTheStartGetsTheStream() async throws {
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: Logger(label: "test"), defaultPoolSize: 2)
        defer { mongo.shutdown() }
        let database = MongoDatabase(client: mongo, name: TestEnvironment.uniqueDatabaseName("hub"))
        let hub = LiveHub(feeds: RouteChangeFeeds(database: database), logger: Logger(label: "routeranker-test"))
        let mailbox = hub.subscribe(route: "6740cccccccccccccccccccc", owner: "ada", link: nil, viewer: nil)
        #expect(!hub.isWatching)
        let service = Task { try await hub.run() }
        defer { service.cancel() }
        #expect(await mailbox.take(timeout: .seconds(5)).recheck)
        #expect(hub.isWatching)
        hub.unsubscribe(mailbox)
    }
}
