import Foundation
import Mongo
import MongoTestSupport
import Testing

@testable import RouteRankerStorage

/// `MongoCollection.documents(ids:with:ids:)`: reads by `_id` from two collections in one command,
/// shared by concurrent callers; each side gets its own collection's documents, untagged, read
/// after the caller asked.
@Suite struct CoalescedJointReadsTests {
    /// `routes` and `users` whose ids overlap ("a0" is in both), so that a document can only be
    /// told apart by the collection it came from.
    private static func collections(_ db: MongoDatabase) async throws -> (MongoCollection, MongoCollection) {
        let routes = db.collection("routes")
        let users = db.collection("users")
        try await routes.insertMany((0..<50).map { ["_id": .string("a\($0)"), "kind": "route", "n": .int($0)] })
        try await users.insertMany((0..<50).map { ["_id": .string("a\($0)"), "kind": "user", "n": .int(100 + $0)] })
        return (routes, users)
    }

    @Test func aCallerAloneGetsEachSidesDocuments() async throws {
        try await TestDatabase.with("joint_alone") { db in
            let (routes, users) = try await Self.collections(db)
            let found = try await routes.documents(ids: ["a1", "nope"], with: users, ids: ["a1", "a2", "a2"])
            #expect(found.mine.keys.sorted() == ["a1"])
            #expect(found.mine["a1"] == ["_id": "a1", "kind": "route", "n": .int(1)])
            #expect(found.other.keys.sorted() == ["a1", "a2"])
            #expect(found.other["a2"] == ["_id": "a2", "kind": "user", "n": .int(102)])
            let none = try await routes.documents(ids: ["x"], with: users, ids: ["y"])
            #expect(none.mine.isEmpty && none.other.isEmpty)
        }
    }

    /// 150 callers at once, each asking for one route and one or two users: each gets its own from
    /// the right collection, and the commands sent are far fewer than the callers.
    @Test func concurrentCallersShareCommands() async throws {
        try await TestDatabase.with("joint_many") { db in
            let (routes, users) = try await Self.collections(db)
            let reads = Batchers.of(db.client).jointReads(of: routes, with: users)
            try await expectSharedCommands(callers: 150, commandsSent: { reads.commandsSent }) { caller in
                let route = caller % 50
                let people = [(caller * 7) % 50, (caller * 3 + 1) % 50]
                let found = try await routes.documents(
                    ids: ["a\(route)"], with: users, ids: people.map { "a\($0)" })
                #expect(found.mine["a\(route)"]?.int("n") == route)
                #expect(found.mine["a\(route)"]?.string("kind") == "route")
                for person in people {
                    #expect(found.other["a\(person)"]?.int("n") == 100 + person)
                    #expect(found.other["a\(person)"]?.contains(CoalescedJointReads.tag) == false)
                }
            }
        }
    }

    /// The leak this guards against: a batch reads every caller's route and users, and a caller
    /// that got the whole batch would hand other callers' users on. 150 callers at once, each
    /// asking for its own route and user, one route and one user that do not exist and, for some, a
    /// user another caller asks for too: each side holds exactly the ids asked for that exist, while
    /// the commands were shared (else there would be nothing to leak).
    @Test func eachCallerGetsOnlyTheDocumentsItAskedFor() async throws {
        try await TestDatabase.with("joint_only_mine") { db in
            let (routes, users) = try await Self.collections(db)
            let reads = Batchers.of(db.client).jointReads(of: routes, with: users)
            try await expectSharedCommands(callers: 150, commandsSent: { reads.commandsSent }) { caller in
                let mine = ["a\(caller % 50)", "gone\(caller)"]
                var others = ["a\((caller * 7) % 50)", "nobody\(caller)"]
                if caller % 3 == 0 { others.append("a\((caller + 1) % 50)") }
                let found = try await routes.documents(ids: mine, with: users, ids: others)
                #expect(Set(found.mine.keys) == ["a\(caller % 50)"], "caller \(caller)")
                #expect(Set(found.other.keys) == Set(others.filter { $0.hasPrefix("a") }), "caller \(caller)")
                for document in found.mine.values { #expect(document.string("kind") == "route") }
                for document in found.other.values { #expect(document.string("kind") == "user") }
            }
        }
    }

    /// Nothing is cached: while other callers keep commands under way, every read sees the writes
    /// to both collections acknowledged just before it.
    @Test func everyReadSeesTheWritesAcknowledgedBeforeIt() async throws {
        try await TestDatabase.with("joint_fresh") { db in
            let (routes, users) = try await Self.collections(db)
            let reads = Batchers.of(db.client).jointReads(of: routes, with: users)
            let before = reads.commandsSent
            let background = try await whileReadersRun(3) { reader in
                _ = try await routes.documents(ids: ["a\(reader)"], with: users, ids: ["a\(reader + 10)"])
            } _: {
                for version in 1...30 {
                    try await routes.updateOne(filter: ["_id": "a7"], update: ["$set": ["v": .int(version)]])
                    try await users.updateOne(filter: ["_id": "a7"], update: ["$set": ["v": .int(-version)]])
                    let found = try await routes.documents(ids: ["a7"], with: users, ids: ["a7"])
                    #expect(found.mine["a7"]?.int("v") == version)
                    #expect(found.other["a7"]?.int("v") == -version)
                }
            }
            #expect(reads.commandsSent - before < background + 30)
        }
    }
}
