import Foundation
import Mongo
import MongoTestSupport
import Synchronization
import Testing

@Suite struct TransactionTests {
    struct Rollback: Error {}

    /// A count shared by concurrent transaction bodies.
    final class RunCount: Sendable {
        let value = Mutex(0)
    }

    @Test func commitMakesAllWritesVisible() async throws {
        try await TestDatabase.with("txc") { db in
            try await db.collection("routes").insertOne(["_id": "r", "version": 1, "points": 0])
            let seen = try await db.transaction { txn in
                let routes = txn.collection("routes")
                let result = try routes.updateOne(
                    filter: ["_id": "r", "version": 1], update: ["$inc": ["version": 1, "points": 1000]])
                #expect(result.matchedCount == 1)
                try txn.collection("points").insertMany([["_id": "r:0"], ["_id": "r:1"]])
                // The transaction reads its own writes.
                return try txn.collection("points").count() + (routes.findOne(["_id": "r"])?.int("points") ?? 0)
            }
            #expect(seen == 1002)
            #expect(try await db.collection("points").count() == 2)
            #expect(try await db.collection("routes").findOne(["_id": "r"])?.int("version") == 2)
        }
    }

    @Test func abortLeavesNothingVisible() async throws {
        try await TestDatabase.with("txa") { db in
            try await db.collection("routes").insertOne(["_id": "r", "version": 1])
            await #expect(throws: Rollback.self) {
                try await db.transaction { txn in
                    try txn.collection("routes").updateOne(filter: ["_id": "r"], update: ["$set": ["version": 2]])
                    try txn.collection("points").insertOne(["_id": "r:0"])
                    #expect(try txn.collection("points").findOne(["_id": "r:0"]) != nil)
                    throw Rollback()
                }
            }
            #expect(try await db.collection("points").count() == 0)
            #expect(try await db.collection("routes").findOne(["_id": "r"])?.int("version") == 1)
        }
    }

    /// A duplicate key inside a transaction aborts it (as in MongoDB) and surfaces as `.duplicateKey`.
    @Test func duplicateKeyInsideTransaction() async throws {
        try await TestDatabase.with("txd") { db in
            try await db.collection("points").insertOne(["_id": "r:0"])
            let error = await mongoError {
                try await db.transaction { txn in
                    try txn.collection("points").insertOne(["_id": "r:1"])
                    try txn.collection("points").insertOne(["_id": "r:0"])
                }
            }
            #expect(error?.isDuplicateKey == true)
            #expect(try await db.collection("points").count() == 1)
        }
    }

    /// Concurrent transactions on one document conflict (WriteConflict, labelled
    /// TransientTransactionError); the retries make every one of them land exactly once.
    @Test func conflictingTransactionsAreRetried() async throws {
        try await TestDatabase.with("txr") { db in
            try await db.collection("counters").insertOne(["_id": "c", "n": 0])
            let workers = 6
            // How often a transaction body ran: more runs than transactions means some were retried,
            // i.e. a conflict really happened (without one the test would prove nothing).
            let runs = RunCount()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        try await db.transaction(maxAttempts: 20) { txn in
                            runs.value.withLock { $0 += 1 }
                            let counters = txn.collection("counters")
                            let n = try counters.findOne(["_id": "c"])?.int("n") ?? -1
                            // First attempts wait (up to 2 s) until every worker has read the
                            // counter, so that several read the same value and must conflict.
                            let arrived = runs.value.withLock { $0 }
                            let deadline = Date.now.addingTimeInterval(2)
                            while arrived <= workers, runs.value.withLock({ $0 }) < workers, Date.now < deadline {
                                usleep(1000)
                            }
                            try counters.updateOne(
                                filter: ["_id": "c", "n": .int(n)], update: ["$set": ["n": .int(n + 1)]])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await db.collection("counters").findOne(["_id": "c"])?.int("n") == workers)
            #expect(runs.value.withLock { $0 } > workers, "no transaction conflicted, so no retry was exercised")
        }
    }
}
