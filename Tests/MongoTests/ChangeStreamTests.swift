import Foundation
import Logging
import Mongo
import MongoTestSupport
import Synchronization
import TestSupport
import Testing

/// `MongoChangeStream` against a real server: events in commit order through the pipeline, update
/// events with the document after them, and a database killed and restarted under the stream.
@Suite struct ChangeStreamTests {
    /// Collects what a stream delivers.
    final class Collector: Sendable {
        private let received = Mutex<[MongoChangeStream.Event]>([])

        func add(_ event: MongoChangeStream.Event) { received.withLock { $0.append(event) } }

        /// The `_id`s of the changed documents, in order, and how many times the stream restarted.
        var changes: [String] {
            received.withLock { $0 }.compactMap { if case .change(let d) = $0 { d.string("key") } else { nil } }
        }
        var restarts: Int { received.withLock { $0 }.filter { if case .restarted = $0 { true } else { false } }.count }
        var documents: [BSONDocument] {
            received.withLock { $0 }.compactMap { if case .change(let d) = $0 { d } else { nil } }
        }

        func wait(seconds: Double, until condition: (Collector) -> Bool) async -> Bool {
            let deadline = Date.now.addingTimeInterval(seconds)
            while Date.now < deadline {
                if condition(self) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition(self)
        }
    }

    static let pipeline: [BSONDocument] = [
        ["$match": ["ns.coll": "watched"]],
        ["$project": ["key": "$documentKey._id", "operationType": 1, "fullDocument": 1]],
    ]

    @Test func changesArriveInOrderWithTheDocumentAfterAnUpdate() async throws {
        try await TestDatabase.with("watch") { db in
            let collector = Collector()
            let stream = MongoChangeStream(
                database: db, pipeline: Self.pipeline, fullDocument: "updateLookup", logger: Logger(label: "test"),
                onEvent: collector.add)
            stream.start()
            defer { stream.stop() }
            #expect(await collector.wait(seconds: 10) { $0.restarts == 1 })
            let watched = db.collection("watched")
            try await db.collection("ignored").insertOne(["_id": "x"])
            try await watched.insertOne(["_id": "a", "n": 1])
            try await watched.updateOne(filter: ["_id": "a"], update: ["$set": ["n": 2]])
            try await watched.insertOne(["_id": "b"])
            _ = try await watched.deleteOne(["_id": "a"])
            #expect(await collector.wait(seconds: 5) { $0.changes.count == 4 })
            #expect(collector.changes == ["a", "a", "b", "a"])
            #expect(collector.documents.map { $0.string("operationType") } == ["insert", "update", "insert", "delete"])
            #expect(collector.documents[1].document("fullDocument")?.int("n") == 2)
            #expect(collector.restarts == 1)
        }
    }

    @Test func aDatabaseRestartUnderTheStreamLosesAndRepeatsNothing() async throws {
        let server = try SecantusProcess()
        try await server.start()
        let client = try MongoClient(uri: server.uri, logger: Logger(label: "test"), defaultPoolSize: 2)
        defer { client.shutdown() }
        let db = MongoDatabase(client: client, name: "watch_restart")
        let collector = Collector()
        let stream = MongoChangeStream(
            database: db, pipeline: Self.pipeline, logger: Logger(label: "test"), onEvent: collector.add)
        stream.start()
        defer { stream.stop() }
        #expect(await collector.wait(seconds: 10) { $0.restarts == 1 })
        let watched = db.collection("watched")
        try await watched.insertOne(["_id": "before"])
        #expect(await collector.wait(seconds: 5) { $0.changes == ["before"] })
        server.stop()
        try await server.start()
        // Written while the stream is still reconnecting: it must resume from its token, not from now.
        for id in ["after-1", "after-2", "after-3"] {
            try await retrying { try await watched.insertOne(["_id": .string(id)]) }
        }
        #expect(await collector.wait(seconds: 20) { $0.changes.count >= 4 })
        // A change delivered twice would come before a marker written after the rest.
        try await retrying { try await watched.insertOne(["_id": "marker"]) }
        #expect(await collector.wait(seconds: 20) { $0.changes.contains("marker") })
        #expect(collector.changes == ["before", "after-1", "after-2", "after-3", "marker"])
        #expect(collector.restarts == 1, "resumed from its token, not started afresh")
    }

    private func retrying(_ body: () async throws -> Void) async throws {
        for _ in 0..<200 {
            do {
                return try await body()
            } catch MongoError.unavailable {
                try await Task.sleep(for: .milliseconds(50))
            } catch MongoError.duplicateKey {
                return  // a retry of a write that was applied
            }
        }
        try await body()
    }
}
