import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import NIOCore
import RouteRankerModels
import RouteRankerStorage
import Testing

/// A claim left by a process that died (an idempotency key's attempt, an import job's worker, an
/// account removal) is taken over once its 30 s lease has run out, not a millisecond sooner or
/// later: the server's clock is a `ManualClock` that the test moves, and the periodic passes
/// sleep on it, so each pass runs at a moment the test chose and nothing waits for real time.
@Suite struct LeaseTakeoverTests {
    /// The services that sleep on the clock between passes: the idle-route sweep, the pending
    /// account removals, the import worker.
    static let periodicServices = 3

    @Test func anIdempotencyKeyIsInProgressFor29999MillisecondsAndTakenOverAt30Seconds() async throws {
        let time = ManualClock()
        try await withAppAndDatabase(clock: time.clock) { client, database in
            let token = try await client.register("ada")
            // An attempt that claimed the key and died: its lease is never released.
            let claim = try await IdempotencyRepository(database: database).claim(
                user: "ada", key: "k", now: time.clock.now)
            guard case .claimed(let holding) = claim else { throw TestFailure("the first claim gave \(claim)") }
            let body = Fixture.jsonBody(Fixture.track(5), #""name":"Retried""#)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k"]

            time.advance(by: .milliseconds(29_999))
            let early = try await client.send(.post, "/v1/routes", token: token, json: body, headers: key)
            #expect(early.status == .conflict)
            #expect(early.headers[.retryAfter] == "1")
            #expect(try await client.routeTotal(token) == 0)

            time.advance(by: .milliseconds(1))
            let late = try await client.send(.post, "/v1/routes", token: token, json: body, headers: key)
            #expect(late.status == .created)
            // The attempt that took over creates the route the key fixed at its first claim.
            #expect(late.json["id"] as? String == holding.route)
            #expect(try await client.routeTotal(token) == 1)
        }
    }

    /// Two jobs claimed by workers that died, one 29.999 s and one 30 s before the app's worker
    /// looks: it takes over the second, works it through, and leaves the first alone.
    @Test func anImportJobIsTakenOverAt30SecondsAndNotAt29999Milliseconds() async throws {
        let time = ManualClock()
        try await withAppAndDatabase(clock: time.clock) { client, database in
            await time.waitForSleepers(Self.periodicServices)  // the worker's first look found nothing
            let token = try await client.register("mover")
            var queued: [String] = []
            for _ in 0..<2 {
                let response = try await ImportFairnessTests.post(client, token)
                #expect(response.status == .accepted)
                queued.append(try response.json.requiredID())
            }
            // The worker looks again 1 s after its first look (`interval`); claimed at that moment
            // minus 29.999 s and minus 30 s.
            let look = time.clock.now.addingTimeInterval(1)
            let imports = ImportRepository(database: database)
            let youngest = try #require(try await imports.claim(worker: "dead-1", now: look - 29.999))
            let oldest = try #require(try await imports.claim(worker: "dead-2", now: look - 30))
            #expect(Set([youngest.id, oldest.id]) == Set(queued))

            time.advance(by: .seconds(1))
            await time.waitForSleepers(Self.periodicServices)  // the worker looked and is waiting again
            #expect(try await Self.job(client, token, oldest.id)["state"] as? String == "done")
            let young = try await Self.job(client, token, youngest.id)
            #expect(young["state"] as? String == "running")
            let stored = try await database.collection("imports").findOne(["_id": .string(youngest.id)])
            #expect(stored?.string("worker") == "dead-1")
        }
    }

    /// Two accounts whose removal a process began and died in, one 29.999 s and one 30 s before
    /// the pending-removals pass: that pass finishes the second and leaves the first for later.
    @Test func anAccountRemovalIsTakenOverAt30SecondsAndNotAt29999Milliseconds() async throws {
        let time = ManualClock()
        try await withAppAndDatabase(clock: time.clock) { client, database in
            await time.waitForSleepers(Self.periodicServices)
            let young = try await client.register("young")
            let old = try await client.register("old")
            for token in [young, old] {
                #expect(
                    try await client.send(.post, "/v1/routes", token: token, json: Fixture.jsonBody(Fixture.track(5)))
                        .status == .created)
            }
            // The pass comes round every `sweepInterval` (10 s by default) after the first.
            let pass = time.clock.now.addingTimeInterval(10)
            let users = UserRepository(database: database)
            #expect(try await users.markLeaving(id: "young", now: pass - 29.999))
            #expect(try await users.markLeaving(id: "old", now: pass - 30))

            time.advance(by: .seconds(10))
            await time.waitForSleepers(Self.periodicServices)
            #expect(try await users.find(id: "old") == nil)
            #expect(try await database.collection("routes").count(["owner": "old"]) == 0)
            #expect(try await users.find(id: "young") != nil)
            #expect(try await database.collection("routes").count(["owner": "young"]) == 1)

            // The next pass, 10 s on, finds the first's lease run out too.
            time.advance(by: .seconds(10))
            await time.waitForSleepers(Self.periodicServices)
            #expect(try await users.find(id: "young") == nil)
        }
    }

    static func job(_ client: any TestClientProtocol, _ token: String, _ id: String) async throws -> JSONObject {
        try await client.send(.get, "/v1/imports/\(id)", token: token).json
    }
}
