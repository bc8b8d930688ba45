import Foundation
import Logging
import Mongo
import MongoTestSupport
import Testing

@testable import RouteRankerStorage

/// `MongoCollection.documents(ids:)`: concurrent reads of one collection share queries, every
/// caller gets exactly its documents, read after it asked, and a failed query fails its callers.
@Suite struct CoalescedReadsTests {
    @Test func aCallerAloneGetsItsDocuments() async throws {
        try await TestDatabase.with("coalesced_alone") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<5).map { ["_id": .string("i\($0)"), "n": .int($0)] })
            let found = try await items.documents(ids: ["i1", "i3", "i3", "nope"])
            #expect(found.keys.sorted() == ["i1", "i3"])
            #expect(found["i3"]?.int("n") == 3)
            #expect(try await items.documents(ids: []).isEmpty)
        }
    }

    /// 200 callers at once (the client lets 256 wait), each asking for its own few ids: every one gets exactly its documents,
    /// and the queries sent are far fewer than the callers.
    @Test func concurrentCallersShareQueries() async throws {
        try await TestDatabase.with("coalesced_many") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<200).map { ["_id": .string("i\($0)"), "n": .int($0)] })
            let reads = Batchers.of(db.client).reads(of: items)
            try await expectSharedCommands(callers: 200, commandsSent: { reads.queriesSent }) { caller in
                // Three ids of which one does not exist; neighbouring callers overlap.
                let ids = ["i\(caller % 200)", "i\((caller * 7 + 1) % 200)", "missing\(caller)"]
                let found = try await items.documents(ids: ids)
                let wanted = Set(ids.dropLast())
                #expect(Set(found.keys) == wanted)
                for id in wanted { #expect(found[id]?.string("_id") == id) }
            }
        }
    }

    /// The leak this guards against: a batch reads every caller's users, token hashes included, and
    /// a caller that got the whole batch would hand them on with one `for d in found.values`. 200
    /// callers at once, each asking for its own user, a user that does not exist and, for a third of
    /// them, a user another caller asks for too: each gets exactly the users it asked for that exist,
    /// while the queries were shared (else there would be nothing to leak).
    @Test func eachCallerGetsOnlyTheDocumentsItAskedFor() async throws {
        try await TestDatabase.with("coalesced_only_mine") { db in
            let users = db.collection("users")
            try await users.insertMany((0..<200).map { ["_id": .string("u\($0)"), "token_hash": .string("h\($0)")] })
            let reads = Batchers.of(db.client).reads(of: users)
            try await expectSharedCommands(callers: 200, commandsSent: { reads.queriesSent }) { caller in
                var ids = ["u\(caller)", "ghost\(caller)"]
                if caller % 3 == 0 { ids.append("u\((caller + 1) % 200)") }
                let found = try await users.documents(ids: ids)
                #expect(Set(found.keys) == Set(ids.filter { $0.hasPrefix("u") }), "caller \(caller)")
                for (id, document) in found { #expect(document.string("_id") == id) }
            }
        }
    }

    /// Nothing is cached: while other callers keep queries under way (so that each read below joins
    /// a batch), every read sees the write acknowledged just before it. (Three readers, not more:
    /// the test database is shared with the whole suite.)
    @Test func everyReadSeesTheWritesAcknowledgedBeforeIt() async throws {
        try await TestDatabase.with("coalesced_fresh") { db in
            let items = db.collection("items")
            try await items.insertMany([["_id": "watched", "v": 0], ["_id": "other", "v": 0]])
            let reads = Batchers.of(db.client).reads(of: items)
            let before = reads.queriesSent
            let background = try await whileReadersRun(3) { _ in
                _ = try await items.documents(ids: ["other"])
            } _: {
                for version in 1...40 {
                    try await items.updateOne(filter: ["_id": "watched"], update: ["$set": ["v": .int(version)]])
                    let seen = try await items.documents(ids: ["watched", "other"])["watched"]?.int("v")
                    #expect(seen == version)
                }
            }
            // Reads did share queries, so the reads above were checked while joining batches.
            #expect(reads.queriesSent - before < background + 40)
        }
    }

    /// A caller asking for more ids than a batch holds gets all of them, read in parts.
    @Test func aLongListIsReadInParts() async throws {
        try await TestDatabase.with("coalesced_long") { db in
            let items = db.collection("items")
            try await items.insertMany((0..<250).map { ["_id": .string("i\($0)")] })
            let reads = Batchers.of(db.client).reads(of: items)
            let before = reads.queriesSent
            let found = try await items.documents(ids: (0..<250).map { "i\($0)" })
            #expect(found.count == 250)
            #expect(reads.queriesSent - before == 3)
        }
    }

    /// Past `maxWaiting` callers in pending batches, a caller is refused at once with
    /// `.overloaded`; those already waiting are answered once the database is reached.
    @Test func callersPastTheBoundAreRefusedAndTheOthersAnswered() async throws {
        try await withOneSlotClient("coalesced_bound") { client, items in
            try await items.insertOne(["_id": "a"])
            let reads = CoalescedReads(maxInFlight: 1, maxBatch: 100, maxWaiting: 3)
            let release = client.occupyOneSlot()  // the one client is busy: the first read queues
            let first = Task { try await reads.documents(["a"], in: items) }
            var waiting: [Task<[String: BSONDocument], any Error>] = []
            for _ in 0..<3 {
                waiting.append(Task { try await reads.documents(["a"], in: items) })
            }
            while reads.callersWaiting < 3 { try await Task.sleep(for: .milliseconds(10)) }
            await #expect(throws: MongoError.overloaded(waiting: 3)) { try await reads.documents(["a"], in: items) }
            release.signal()
            #expect(try await first.value["a"] != nil)
            for task in waiting { #expect(try await task.value["a"] != nil) }
            #expect(reads.callersWaiting == 0)
        }
    }

    /// A database that does not answer: the caller whose query is under way and every caller
    /// gathered behind it get `.unavailable`, the gathered ones without a selection timeout of
    /// their own.
    @Test func aDatabaseThatDoesNotAnswerFailsEveryWaitingCaller() async throws {
        let (unavailable, items) = try await callersWithoutADatabase(40) { items, caller in
            _ = try await items.documents(ids: ["i\(caller)"])
        }
        #expect(unavailable.count == 40)
        #expect(unavailable.allSatisfy { $0 })
        // One query under way, whose failure refuses every caller gathered behind it; the callers
        // that came after it failed gather and send one more, refused in turn. Each query waits a
        // selection timeout: queries counted, not seconds, so no machine's load can change the
        // answer (40 callers queued one by one would be 40 queries).
        let queries = Batchers.of(items.database.client).reads(of: items).queriesSent
        #expect(queries < 10, "\(queries) queries for 40 callers of a database that does not answer")
    }
}
