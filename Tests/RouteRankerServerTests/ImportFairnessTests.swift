import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import NIOCore
import RouteRankerModels
import RouteRankerStorage
import TestSupport
import Testing

/// Issue 43 #9: one user's imports must not take the worker from everyone else. At most two of a
/// user's imports are in flight (a third is `429` with `Retry-After` and stores nothing), and the
/// worker serves the user served least recently, not the oldest job.
@Suite struct ImportFairnessTests {
    /// The smallest zip: an "end of central directory" record and nothing else.
    static let emptyZip = Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))

    static func post(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/imports", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/zip"],
            body: ByteBuffer(bytes: emptyZip))
    }

    /// A job of `owner` that another process is working on (its lease runs for an hour), so that
    /// the app's own worker leaves it alone.
    static func runningElsewhere(_ imports: ImportRepository, owner: String, now: Date) async throws -> String {
        let id = NewID.make()
        try await imports.insert(ImportRecord(id: id, owner: owner, state: .receiving, createdAt: now))
        try await imports.queue(id: id, size: 22)
        _ = try await imports.imports.updateOne(
            filter: ["_id": .string(id)],
            update: [
                "$set": [
                    "state": "running", "worker": "elsewhere", "lease_until": .date(now.addingTimeInterval(3600)),
                ]
            ])
        return id
    }

    @Test func aThirdImportInFlightIsRefusedWithRetryAfterAndStoresNothing() async throws {
        try await withAppAndDatabase { client, database in
            let me = try await client.register("mover")
            let other = try await client.register("other")
            let imports = ImportRepository(database: database)
            let first = try await Self.runningElsewhere(imports, owner: "mover", now: .now)
            _ = try await Self.runningElsewhere(imports, owner: "mover", now: .now)

            let third = try await Self.post(client, me)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "too_many_requests")
            #expect(third.headers[.retryAfter] == "60")
            // Refused before anything is stored (the bound is counted before the job is).
            #expect(try await database.collection("imports").count(["owner": "mover"]) == 2)
            #expect(try await client.send(.get, "/v1/imports", token: me).json["total"] as? Int == 2)
            // Another user is not bound by mine.
            #expect(try await Self.post(client, other).status == .accepted)

            // One done: there is room again.
            _ = try await imports.imports.updateOne(
                filter: ["_id": .string(first)], update: ["$set": ["state": "done"], "$unset": ["worker": ""]])
            #expect(try await Self.post(client, me).status == .accepted)
        }
    }

    /// User A queues two imports, then user B one. The first claim takes A's oldest; while it runs,
    /// and after it is done, B's goes before A's second (a FIFO worker took A's second first).
    @Test func anotherUsersImportIsPickedBeforeTheSecondOfTheFirstUsers() async throws {
        try await Self.withThreeQueued { imports, ids, t0 in
            let now = t0.addingTimeInterval(10)
            let first = try #require(try await imports.claim(worker: "w1", now: now))
            #expect(first.id == ids["A1"])
            // Another process, while A1 runs: B's, not A's second.
            let second = try #require(try await imports.claim(worker: "w2", now: now.addingTimeInterval(1)))
            #expect(second.id == ids["B1"])
            let third = try #require(try await imports.claim(worker: "w3", now: now.addingTimeInterval(2)))
            #expect(third.id == ids["A2"])
            #expect(try await imports.claim(worker: "w4", now: now.addingTimeInterval(3)) == nil)
        }
    }

    /// The same after A's first is done: one worker alternates between users.
    @Test func oneWorkerAlternatesBetweenUsers() async throws {
        try await Self.withThreeQueued { imports, ids, t0 in
            var now = t0.addingTimeInterval(10)
            var order: [String] = []
            while let job = try await imports.claim(worker: "w", now: now) {
                order.append(ids.first { $0.value == job.id }?.key ?? "?")
                now.addTimeInterval(1)
                try await imports.finish(id: job.id, worker: "w", error: nil, now: now)
                now.addTimeInterval(1)
            }
            #expect(order == ["A1", "B1", "A2"])
        }
    }

    /// Three imports queued on a fresh database, a second apart from `t0`: user A's `A1` and `A2`,
    /// then user B's `B1` (`ids` by those names).
    static func withThreeQueued(
        _ body: (ImportRepository, _ ids: [String: String], _ t0: Date) async throws -> Void
    ) async throws {
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: Logger(label: "test"), defaultPoolSize: 2)
        defer { mongo.shutdown() }
        let imports = ImportRepository(
            database: MongoDatabase(client: mongo, name: TestEnvironment.uniqueDatabaseName("imports")))
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [String: String] = [:]
        for (n, (name, owner)) in [("A1", "a"), ("A2", "a"), ("B1", "b")].enumerated() {
            let id = NewID.make()
            try await imports.insert(
                ImportRecord(id: id, owner: owner, state: .receiving, createdAt: t0.addingTimeInterval(Double(n))))
            try await imports.queue(id: id, size: 22)
            ids[name] = id
        }
        try await body(imports, ids, t0)
    }
}
