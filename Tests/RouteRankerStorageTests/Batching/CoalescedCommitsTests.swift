import Foundation
import Mongo
import MongoTestSupport
import Testing

@testable import RouteRankerStorage

/// `MongoCollection.updateOneCoalesced(filter:update:afterStoring:in:)`: each caller's documents
/// are stored before its update is sent, concurrent callers share both commands, and each learns
/// what became of its own write only.
@Suite struct CoalescedCommitsTests {
    /// Many callers at once, each storing its parts and then naming them in its own head document:
    /// every head names parts that are all stored, and the callers shared commands.
    @Test func concurrentCommitsShareCommandsAndEveryHeadNamesStoredParts() async throws {
        try await TestDatabase.with("coalesced_commits") { db in
            let heads = db.collection("heads")
            let parts = db.collection("parts")
            let callers = 80
            try await heads.insertMany((0..<callers).map { ["_id": .string("h\($0)"), "v": 0] })
            let commits = Batchers.of(db.client).commits(of: heads, after: parts)
            try await expectSharedCommands(callers: callers, commandsSent: { commits.commandsSent }) { caller in
                // One part or two, as an append stores one bucket or more.
                let names = (0...(caller % 2)).map { "h\(caller)-p\($0)" }
                let matched = try await heads.updateOneCoalesced(
                    filter: ["_id": .string("h\(caller)"), "v": 0],
                    update: ["$set": ["v": 1, "parts": .array(names.map { .string($0) })]],
                    afterStoring: names.map { ["_id": .string($0), "head": .string("h\(caller)")] }, in: parts,
                    isStored: Self.duplicateMeansStored)
                #expect(matched == true)
            }
            let stored = Set(try await parts.find().compactMap { $0.string("_id") })
            for head in try await heads.find() {
                #expect(head.int("v") == 1)
                let named = (head.array("parts") ?? []).compactMap(\.stringValue)
                #expect(named.count == (Int(head.string("_id")!.dropFirst())! % 2) + 1)
                #expect(Set(named).isSubset(of: stored), "\(head)")
            }
            #expect(stored.count == callers / 2 * 3)
        }
    }

    /// In one batch: a part already stored (a retried write) counts as stored and its update is
    /// applied; a part the server refuses fails its caller, whose update is not sent; an update
    /// that matches nothing leaves its parts stored and unnamed, and the others' verdicts cannot
    /// say (nil) since some matched.
    @Test func inOneBatchEachCallerGetsTheOutcomeOfItsOwnWrite() async throws {
        try await withOneSlotClient("coalesced_commit_batch") { client, heads in
            let parts = heads.database.collection("parts")
            try await heads.insertMany((0..<4).map { ["_id": .string("h\($0)"), "v": 0] })
            try await parts.insertOne(["_id": "retried"])
            let commits = Batchers.of(client).commits(of: heads, after: parts)
            let writes: [(head: String, part: BSONValue)] = [
                ("h0", "first"), ("h1", "retried"), ("h2", ["$refused": 1]), ("nowhere", "orphan"), ("h3", "last"),
            ]
            let before = commits.commandsSent
            let results = try await CoalescedWritesTests.inOneBatch(
                client, waiting: { commits.callersWaiting },
                writes.map { head, part in
                    { @Sendable in
                        try await heads.updateOneCoalesced(
                            filter: ["_id": .string(head)], update: ["$set": ["v": 1]],
                            afterStoring: [["_id": part]], in: parts, isStored: Self.duplicateMeansStored)
                    }
                })
            // The first is sent alone, the rest as one batch.
            #expect(commits.commandsSent - before == 2)
            #expect(try results[0].get() == true)
            #expect(try results[1].get() == nil)
            #expect(throws: MongoError.self) { try results[2].get() }
            #expect(try results[3].get() == nil)
            #expect(try results[4].get() == nil)
            let values = try await heads.find().reduce(into: [String: Int]()) { $0[$1.string("_id")!] = $1.int("v") }
            #expect(values == ["h0": 1, "h1": 1, "h2": 0, "h3": 1])
            let stored = Set(try await parts.find().compactMap { $0.string("_id") })
            #expect(stored == ["first", "retried", "orphan", "last"])
        }
    }

    /// The rule the tests' parts follow: a part's key is its writer's own, so a taken key means an
    /// earlier attempt stored it.
    @Sendable static func duplicateMeansStored(_ error: MongoError) -> Bool {
        if case .duplicateKey = error { return true }
        return false
    }
}
