import Foundation
import Mongo
import MongoTestSupport
import Testing

@testable import RouteRankerStorage

/// `MongoCollection.aggregateCoalesced`: concurrent pipelines on one collection share commands,
/// each caller gets exactly its own pipeline's output in its own order, read after it asked, and a
/// pipeline asked for by several callers at once runs once.
@Suite struct CoalescedAggregatesTests {
    /// Items 0..<60 in groups of six, each with `n` and its group.
    private static func items(_ db: MongoDatabase) async throws -> MongoCollection {
        let items = db.collection("items")
        try await items.insertMany(
            (0..<60).map { ["_id": .string("i\($0)"), "n": .int($0), "group": .string("g\($0 % 6)")] })
        return items
    }

    /// The page of `group`, largest `n` first, then a count of the group, as the inbox asks.
    private static func page(of group: String, limit: Int) -> [BSONDocument] {
        [
            ["$match": ["group": .string(group)]],
            ["$sort": ["n": -1]],
            ["$limit": .int(limit)],
            [
                "$unionWith": [
                    "coll": "items",
                    "pipeline": [
                        ["$match": ["group": .string(group)]],
                        ["$group": ["_id": .null, "total": ["$sum": 1]]],
                    ],
                ]
            ],
        ]
    }

    /// What `page(of:limit:)` must return, computed here.
    private static func expected(group: Int, limit: Int) -> [Int?] {
        Array((0..<60).filter { $0 % 6 == group }.reversed().prefix(limit)) + [nil]
    }

    @Test func aCallerAloneGetsItsPipelinesOutput() async throws {
        try await TestDatabase.with("aggregates_alone") { db in
            let items = try await Self.items(db)
            let output = try await items.aggregateCoalesced(Self.page(of: "g2", limit: 3), expected: 4)
            #expect(output.map { $0.int("n") } == Self.expected(group: 2, limit: 3))
            #expect(output.last?.int("total") == 10)
            #expect(output.allSatisfy { !$0.contains(CoalescedAggregates.tag) })
            let none = try await items.aggregateCoalesced([["$match": ["group": "none"]]], expected: 1)
            #expect(none.isEmpty)
        }
    }

    /// 120 callers at once over six groups and two page sizes: each gets its own page in order and
    /// its own count, untagged, and the commands sent are far fewer than the callers.
    @Test func concurrentCallersShareCommands() async throws {
        try await TestDatabase.with("aggregates_many") { db in
            let items = try await Self.items(db)
            let runner = Batchers.of(db.client).aggregates(of: items)
            try await expectSharedCommands(callers: 120, commandsSent: { runner.commandsSent }) { caller in
                let (which, limit) = (caller % 6, caller % 12 < 6 ? 2 : 5)
                let output = try await items.aggregateCoalesced(
                    Self.page(of: "g\(which)", limit: limit), expected: limit + 1)
                #expect(output.map { $0.int("n") } == Self.expected(group: which, limit: limit))
                #expect(output.last?.int("total") == 10)
                #expect(output.allSatisfy { !$0.contains(CoalescedAggregates.tag) })
            }
        }
    }

    /// Nothing is cached: while other callers keep commands under way (so that each run below joins
    /// a batch, often with the same pipeline as a caller already waiting), every run sees the write
    /// acknowledged just before it.
    @Test func everyRunSeesTheWritesAcknowledgedBeforeIt() async throws {
        try await TestDatabase.with("aggregates_fresh") { db in
            let items = try await Self.items(db)
            let watched: [BSONDocument] = [["$match": ["_id": "i7"]], ["$project": ["v": 1]]]
            let runner = Batchers.of(db.client).aggregates(of: items)
            let before = runner.commandsSent
            let background = try await whileReadersRun(3) { reader in
                // One reader asks what the checks below ask, the others something else.
                let pipeline = reader == 0 ? watched : Self.page(of: "g\(reader)", limit: 2)
                _ = try await items.aggregateCoalesced(pipeline, expected: 3)
            } _: {
                for version in 1...40 {
                    try await items.updateOne(filter: ["_id": "i7"], update: ["$set": ["v": .int(version)]])
                    let seen = try await items.aggregateCoalesced(watched, expected: 1).first?.int("v")
                    #expect(seen == version)
                }
            }
            #expect(runner.commandsSent - before < background + 40)
        }
    }

    /// A pipeline the database refuses fails the callers of its command, and the next command
    /// (without it) answers as usual.
    @Test func aRefusedPipelineFailsItsBatchOnly() async throws {
        try await TestDatabase.with("aggregates_refused") { db in
            let items = try await Self.items(db)
            await #expect(throws: MongoError.self) {
                _ = try await items.aggregateCoalesced([["$notAStage": [:]]], expected: 1)
            }
            let output = try await items.aggregateCoalesced(Self.page(of: "g0", limit: 1), expected: 2)
            #expect(output.map { $0.int("n") } == Self.expected(group: 0, limit: 1))
        }
    }
}
