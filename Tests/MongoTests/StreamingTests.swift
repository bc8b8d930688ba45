import MongoTestSupport
import Synchronization
import TestSupport
import Testing

@testable import Mongo

@Suite struct StreamingTests {
    @Test func findBatchesHandsOverBoundedBatches() async throws {
        try await TestDatabase.with("batches") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<25).map { ["_id": .int($0)] })
            let sizes = Mutex<[Int]>([])
            let ids = Mutex<[Int]>([])
            try await items.findBatches(sort: ["_id": 1], batchSize: 10) { batch in
                sizes.withLock { $0.append(batch.count) }
                ids.withLock { $0 += batch.compactMap { $0.int("_id") } }
            }
            #expect(sizes.withLock { $0 } == [10, 10, 5])
            #expect(ids.withLock { $0 } == Array(0..<25))
        }
    }

    @Test func findStreamDeliversEverythingInOrder() async throws {
        try await TestDatabase.with("stream") { db in
            let items = db.collection("items")
            try await items.insertMany(
                (0..<250).map { ["_id": .int($0), "pad": .string(String(repeating: "x", count: 100))] })
            var ids: [Int] = []
            var batches = 0
            for try await batch in items.findStream(sort: ["_id": 1], projection: ["pad": 0], batchSize: 40) {
                #expect(batch.count <= 40)
                batches += 1
                ids += batch.compactMap { $0.int("_id") }
                await Task.yield()
            }
            #expect(ids == Array(0..<250))
            #expect(batches == 7)
            // An empty result ends at once.
            var empty = 0
            for try await _ in items.findStream(["_id": -1]) { empty += 1 }
            #expect(empty == 0)
        }
    }

    /// Leaving a stream early frees its pool thread: more abandoned streams than there are threads,
    /// then ordinary operations still run.
    @Test func abandonedStreamsReleaseTheirThreads() async throws {
        try await TestDatabase.with("abandon") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<50).map { ["_id": .int($0)] })
            for _ in 0..<(db.client.poolSize + 2) {
                for try await batch in items.findStream(batchSize: 5) {
                    #expect(batch.count == 5)
                    break
                }
            }
            #expect(try await items.count() == 50)
        }
    }

    /// A consumer that stops reading longer than `stallTimeout` loses the stream (with an error, not a
    /// silently short result), and its pool thread is freed.
    @Test func stalledConsumerGetsAnError() async throws {
        try await TestDatabase.with("stall") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<30).map { ["_id": .int($0)] })
            var received = 0
            let client = db.client
            let error = await mongoError {
                for try await batch in items.findStream(batchSize: 5, stallTimeout: 0.2) {
                    received += batch.count
                    // Stalled until the stream has given up on this consumer and freed its
                    // thread: the next read must then fail, whatever the time it took.
                    try await eventually { client.threads.slotsTaken == 0 }
                }
            }
            #expect(error != nil)
            #expect(received < 30)
            #expect(try await items.count() == 30)
        }
    }
}
