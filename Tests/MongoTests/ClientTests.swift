import Foundation
import Logging
import Mongo
import MongoTestSupport
import Testing

@Suite struct ClientTests {
    @Test func invalidURIThrows() {
        #expect(throws: MongoError.self) { try MongoClient(uri: "postgres://nope", logger: Logger(label: "t")) }
    }

    @Test func poolSizeComesFromTheURIOrTheDefault() throws {
        let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
        let separator = uri.contains("?") ? "&" : (uri.hasSuffix("/") ? "?" : "/?")
        let three = try MongoClient(uri: uri + separator + "maxPoolSize=3", logger: Logger(label: "t"))
        #expect(three.poolSize == 3)
        three.shutdown()
        let plain = try MongoClient(uri: "mongodb://127.0.0.1:1/", logger: Logger(label: "t"), defaultPoolSize: 5)
        #expect(plain.poolSize == 5)
    }

    /// After shutdown (the end of `run()`), operations fail as unavailable instead of touching the
    /// destroyed pool; shutting down twice is harmless.
    @Test func operationsAfterShutdownAreUnavailable() async throws {
        let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
        let client = try MongoClient(uri: uri, logger: Logger(label: "t"))
        let db = MongoDatabase(client: client, name: "unused")
        try await db.ping()
        client.shutdown()
        client.shutdown()
        let error = await mongoError { try await db.ping() }
        #expect(error?.isUnavailable == true)
    }

    /// More simultaneous operations than pooled clients: they queue for a thread and all complete.
    @Test func moreOperationsThanClients() async throws {
        try await TestDatabase.with("many_ops") { db in
            let items = db.collection("items")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<(db.client.poolSize * 8) {
                    group.addTask { try await items.insertOne(["_id": .int(i)]) }
                }
                try await group.waitForAll()
            }
            #expect(try await items.count() == db.client.poolSize * 8)
        }
    }
}
