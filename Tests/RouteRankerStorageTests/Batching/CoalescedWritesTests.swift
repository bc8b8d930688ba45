import Foundation
import Logging
import Mongo
import MongoTestSupport
import Testing

@testable import RouteRankerStorage

/// `MongoCollection.insertOneCoalesced` and `updateOneCoalesced`: concurrent writes to one
/// collection share commands, and each caller learns what became of its own write only.
@Suite struct CoalescedWritesTests {
    /// Starts `writes` while the pool's slot is held, waits until all but the first have gathered
    /// behind it, then lets them go: the first is sent alone, the rest as one batch.
    static func inOneBatch<T: Sendable>(
        _ client: MongoClient, waiting: @escaping @Sendable () -> Int, _ writes: [@Sendable () async throws -> T]
    ) async throws -> [Result<T, any Error>] {
        let release = client.occupyOneSlot()
        var tasks: [Task<T, any Error>] = [Task { try await writes[0]() }]
        // The first is in flight (waiting for the slot) before the others come.
        try await Task.sleep(for: .milliseconds(50))
        for write in writes.dropFirst() { tasks.append(Task { try await write() }) }
        while waiting() < writes.count - 1 { try await Task.sleep(for: .milliseconds(10)) }
        release.signal()
        var results: [Result<T, any Error>] = []
        for task in tasks { results.append(await task.result) }
        return results
    }

    @Test func concurrentInsertsShareCommandsAndEveryDocumentIsStored() async throws {
        try await TestDatabase.with("coalesced_inserts") { db in
            let items = db.collection("items")
            let inserts = Batchers.of(db.client).inserts(of: items)
            let before = inserts.commandsSent
            let callers = 120
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        try await items.insertOneCoalesced(["_id": .string("i\(caller)"), "n": .int(caller)])
                    }
                }
                try await group.waitForAll()
            }
            let stored = try await items.find()
            #expect(stored.count == callers)
            #expect(Set(stored.compactMap { $0.int("n") }) == Set(0..<callers))
            let sent = inserts.commandsSent - before
            #expect(sent >= 1)
            #expect(sent < callers / 2, "\(sent) commands for \(callers) concurrent inserts")
        }
    }

    /// In one batch, a document a unique index refuses fails its own caller only; the others are
    /// stored and told so.
    @Test func aDuplicateInABatchConcernsOnlyItsCaller() async throws {
        try await withOneSlotClient("coalesced_duplicate") { client, items in
            try await items.insertOne(["_id": "taken"])
            let inserts = Batchers.of(client).inserts(of: items)
            let before = inserts.commandsSent
            let ids = ["first", "a", "taken", "b", "c"]
            let results = try await Self.inOneBatch(
                client, waiting: { inserts.callersWaiting },
                ids.map { id in { @Sendable in try await items.insertOneCoalesced(["_id": .string(id)]) } })
            #expect(inserts.commandsSent - before == 2)
            for (id, result) in zip(ids, results) {
                if id == "taken" {
                    #expect(throws: MongoError.self) { try result.get() }
                    if case .failure(let error) = result, case MongoError.duplicateKey = error {
                    } else {
                        Issue.record("the duplicate's caller got \(result)")
                    }
                } else {
                    #expect(throws: Never.self) { try result.get() }
                }
            }
            #expect(Set(try await items.find().compactMap { $0.string("_id") }) == Set(ids))
        }
    }

    /// A batch of updates says each matched when all did, none when none did, and "cannot say"
    /// (nil) when some did; a statement the server refuses fails its own caller only.
    @Test func updatesInABatchSayWhatTheReplyCanTell() async throws {
        try await withOneSlotClient("coalesced_updates") { client, items in
            try await items.insertMany((0..<6).map { ["_id": .string("d\($0)"), "v": .int(0), "s": "text"] })
            let updates = Batchers.of(client).updates(of: items)
            func batch(_ statements: [(String, BSONDocument)]) async throws -> [Result<Bool?, any Error>] {
                let before = updates.commandsSent
                let results = try await Self.inOneBatch(
                    client, waiting: { updates.callersWaiting },
                    statements.map { id, update in
                        { @Sendable in try await items.updateOneCoalesced(filter: ["_id": .string(id)], update: update)
                        }
                    })
                #expect(updates.commandsSent - before == 2)
                return results
            }
            let bump: BSONDocument = ["$inc": ["v": 1]]
            // The first of each batch is sent alone, so its answer is always certain.
            let all = try await batch([("d0", bump), ("d1", bump), ("d2", bump), ("d3", bump)])
            #expect(all.map { try? $0.get() } == [true, true, true, true])
            let none = try await batch([("d0", bump), ("x1", bump), ("x2", bump)])
            #expect(none.map { try? $0.get() } == [true, false, false])
            let some = try await batch([("x0", bump), ("d4", bump), ("x3", bump), ("d5", bump)])
            #expect(some.map { try? $0.get() } == [false, nil, nil, nil])
            // `$inc` of a string is refused for that statement; the others are applied.
            let refused = try await batch([("d0", bump), ("d1", ["$inc": ["s": 1]]), ("d2", bump)])
            #expect(throws: MongoError.self) { try refused[1].get() }
            #expect(try refused[0].get() == true)
            #expect(try refused[2].get() == true)
            let values = try await items.find().reduce(into: [String: Int]()) { $0[$1.string("_id")!] = $1.int("v") }
            #expect(values == ["d0": 3, "d1": 1, "d2": 2, "d3": 1, "d4": 1, "d5": 1])
        }
    }

    /// Upserts of one batch share one command: new documents are inserted, existing ones updated,
    /// and a statement the database refuses fails its own caller only.
    @Test func upsertsShareACommandAndAnErrorStaysWithItsCaller() async throws {
        try await withOneSlotClient("coalesced_upserts") { client, items in
            try await items.insertOne(["_id": "old", "n": 1])
            try await items.insertOne(["_id": "text", "n": "not a number"])
            let upserts = Batchers.of(client).upserts(of: items)
            let before = upserts.commandsSent
            let ids = ["first", "old", "text", "new1", "new2"]
            let results = try await Self.inOneBatch(
                client, waiting: { upserts.callersWaiting },
                ids.map { id in
                    { @Sendable in
                        try await items.upsertOneCoalesced(filter: ["_id": .string(id)], update: ["$inc": ["n": 10]])
                    }
                })
            #expect(upserts.commandsSent - before == 2)
            for (id, result) in zip(ids, results) {
                if id == "text" {
                    #expect(throws: MongoError.self) { try result.get() }
                } else {
                    #expect(throws: Never.self) { try result.get() }
                }
            }
            let stored = Dictionary(
                uniqueKeysWithValues: try await items.find().compactMap { doc in doc.string("_id").map { ($0, doc) } })
            #expect(stored["old"]?.int("n") == 11)
            #expect(stored["new1"]?.int("n") == 10 && stored["new2"]?.int("n") == 10 && stored["first"]?.int("n") == 10)
            #expect(stored["text"]?.string("n") == "not a number")
        }
    }

    /// A database that does not answer fails the write under way and every write gathered behind
    /// it at once, and nothing is said to have been stored.
    @Test func aDatabaseThatDoesNotAnswerFailsEveryWaitingWrite() async throws {
        let (unavailable, items) = try await callersWithoutADatabase(30) { items, caller in
            if caller % 2 == 0 {
                try await items.insertOneCoalesced(["_id": .string("i\(caller)")])
            } else {
                _ = try await items.updateOneCoalesced(filter: ["_id": "a"], update: ["$set": ["v": 1]])
            }
        }
        #expect(unavailable.count == 30)
        #expect(unavailable.allSatisfy { $0 })
        // As for coalesced reads: a command or two of each kind, each a selection timeout, not
        // thirty in turn.
        let batchers = Batchers.of(items.database.client)
        let sent = batchers.inserts(of: items).commandsSent + batchers.updates(of: items).commandsSent
        #expect(sent < 10, "\(sent) commands for 30 writers to a database that does not answer")
    }
}
