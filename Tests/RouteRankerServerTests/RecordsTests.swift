import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import RouteRankerCore
import TestSupport
import Testing

@testable import RouteRankerServer
@testable import RouteRankerStorage

/// Best efforts, records, progressions, the friends' ranking and the training log (API.md "Best
/// efforts, records and the training log"), through the HTTP API on a real database.
@Suite struct RecordsTests {
    /// A run of `count` points about 15 m apart, one every `interval` s (5 s: ~3 m/s).
    static func run(_ count: Int = 450, interval: Double = 5, t0: Double = Fixture.t0) -> [TrackPoint] {
        Fixture.track(count, t0: t0, interval: interval, speed: 15 / interval, azimuth: 80)
    }

    static func items(_ response: TestResponse) -> [JSONObject] { response.json["items"] as? [JSONObject] ?? [] }

    @Test func aRoutesBestEffortsAreTheRuleOverItsKeptPoints() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let route = try await client.createRoute(me, Self.run(), name: "Morning", activity: "run")
            let id = try #require(route["id"] as? String)
            let kept = try await client.points(me, id)
            let expected = BestEfforts.compute(points: kept, activity: .run)
            #expect(expected.map(\.distance) == ["400m", "half_mile", "1k", "1_mile", "2_mile", "5k"])

            let response = try await client.send(.get, "/v1/routes/\(id)/best_efforts", token: me)
            #expect(response.status == .ok)
            let items = Self.items(response)
            #expect(items.map { $0["distance"] as? String } == expected.map(\.distance))
            for (item, effort) in zip(items, expected) {
                #expect(number(item["distance_m"]) == effort.distanceMetres)
                #expect(number(item["elapsed_s"]) == effort.elapsedRounded)
                #expect(number(item["start_t"]) == effort.startTRounded)
                #expect(number(item["end_t"]) == effort.endTRounded)
                #expect(item["pr_rank"] as? Int == 1)
            }

            // A recording route has none; a stranger gets the same 404 as for the route.
            let recording = try await client.createRoute(me, Self.run(100), activity: "run", recording: true)
            let recordingID = try #require(recording["id"] as? String)
            let none = try await client.send(.get, "/v1/routes/\(recordingID)/best_efforts", token: me)
            #expect(none.status == .ok && Self.items(none).isEmpty)
            let stranger = try await client.register("stranger")
            let refused = try await client.send(.get, "/v1/routes/\(id)/best_efforts", token: stranger)
            #expect(refused.status == .notFound)
            // Finishing computes them at once.
            #expect(try await client.send(.post, "/v1/routes/\(recordingID)/finish", token: me).status == .ok)
            let finished = try await client.send(.get, "/v1/routes/\(recordingID)/best_efforts", token: me)
            #expect(Self.items(finished).map { $0["distance"] as? String } == ["400m", "half_mile", "1k"])
        }
    }

    @Test func recordsProgressionsAndPrRanksFollowTheRoutes() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let slow = try #require(
                try await client.createRoute(me, Self.run(interval: 5), name: "Slow", activity: "run")["id"] as? String)
            let fast = try #require(
                try await client.createRoute(
                    me, Self.run(interval: 4, t0: Fixture.t0 + 86_400), name: "Fast", activity: "run")["id"] as? String)

            let records = try await client.send(.get, "/v1/users/me/records", token: me)
            #expect(records.status == .ok)
            #expect(records.json["activity"] as? String == "run")
            let fiveK = try #require(Self.items(records).first { $0["distance"] as? String == "5k" })
            #expect(fiveK["route"] as? String == fast)
            #expect((fiveK["achieved_at"] as? String)?.hasSuffix("Z") == true)

            let slowEfforts = Self.items(try await client.send(.get, "/v1/routes/\(slow)/best_efforts", token: me))
            #expect(slowEfforts.allSatisfy { $0["pr_rank"] as? Int == 2 })

            // The progression: the slow one first (it came first), then the fast one.
            let progression = try await client.send(.get, "/v1/users/me/records/5k", token: me)
            #expect(Self.items(progression).map { $0["route"] as? String } == [slow, fast])
            // A distance the activity does not have is 404; a bad activity 400.
            #expect(
                try await client.send(.get, "/v1/users/me/records/400m?activity=ride", token: me).status == .notFound)
            #expect(
                try await client.send(.get, "/v1/users/me/records/5k?activity=drive", token: me).status == .notFound)
            #expect(try await client.send(.get, "/v1/users/me/records?activity=WALK", token: me).status == .badRequest)
            let drive = try await client.send(.get, "/v1/users/me/records?activity=drive", token: me)
            #expect(drive.status == .ok && Self.items(drive).isEmpty)

            // Changing the fast route's activity takes its efforts out of the run records at once.
            let patched = try await client.send(.patch, "/v1/routes/\(fast)", token: me, json: #"{"activity":"walk"}"#)
            #expect(patched.status == .ok)
            let after = Self.items(try await client.send(.get, "/v1/users/me/records", token: me))
            #expect(after.allSatisfy { $0["route"] as? String == slow })
            let walks = Self.items(try await client.send(.get, "/v1/users/me/records?activity=walk", token: me))
            #expect(walks.allSatisfy { $0["route"] as? String == fast } && !walks.isEmpty)
            let slowAgain = Self.items(try await client.send(.get, "/v1/routes/\(slow)/best_efforts", token: me))
            #expect(slowAgain.allSatisfy { $0["pr_rank"] as? Int == 1 })

            // Deleting it removes them too.
            #expect(try await client.send(.delete, "/v1/routes/\(fast)", token: me).status == .noContent)
            let gone = Self.items(try await client.send(.get, "/v1/users/me/records?activity=walk", token: me))
            #expect(gone.isEmpty)
        }
    }

    @Test func theRankingCountsOnlyTheRoutesICanSee() async throws {
        try await withApp { client in
            let me = try await client.register("me", name: "Me")
            let friend = try await client.register("friend", name: "Friend", friends: ["me"])
            let stranger = try await client.register("stranger")
            _ = try await client.createRoute(me, Self.run(interval: 5), activity: "run")
            let shared = try #require(
                try await client.createRoute(friend, Self.run(interval: 4), activity: "run")["id"] as? String)
            _ = try await client.createRoute(friend, Self.run(interval: 3, t0: Fixture.t0 + 9_999), activity: "run")
            _ = try await client.createRoute(stranger, Self.run(interval: 3), activity: "run")
            #expect(try await client.shareRoute(friend, shared, to: "me").status == .created)

            let ranking = try await client.send(.get, "/v1/records/1k", token: me)
            #expect(ranking.status == .ok)
            let rows = Self.items(ranking)
            #expect(rows.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["friend", "me"])
            #expect(rows.map { $0["rank"] as? Int } == [1, 2])
            #expect(rows.first?["route"] as? String == shared)
            #expect(((rows.first?["user"] as? JSONObject)?["name"] as? String) == "Friend")
            #expect(ranking.json["total"] as? Int == 2)

            // Paginated: one row a page, the cursor bound to this list.
            let first = try await client.send(.get, "/v1/records/1k?limit=1", token: me)
            let next = try #require(first.json["next"] as? String)
            let second = try await client.send(.get, "/v1/records/1k?limit=1&cursor=\(next)", token: me)
            #expect(Self.items(second).map { ($0["user"] as? JSONObject)?["id"] as? String } == ["me"])
            #expect(try await client.send(.get, "/v1/records/5k?cursor=\(next)", token: me).status == .badRequest)

            // Unshared: the friend's route no longer counts.
            #expect(
                try await client.send(.delete, "/v1/routes/\(shared)/shares/me", token: friend).status == .noContent)
            let alone = Self.items(try await client.send(.get, "/v1/records/1k", token: me))
            #expect(alone.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["me"])
        }
    }

    @Test func theTrainingLogSumsByPeriodInTheTimeZone() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            // Monday 2026-11-23 00:30 in Berlin is still Sunday 23:30 UTC: week 47 there, 48 here.
            let mondayBerlin = 1_795_390_200.0  // 2026-11-22T23:30:00Z
            let a = try await client.createRoute(me, Self.run(100, t0: mondayBerlin), activity: "run")
            let b = try await client.createRoute(me, Self.run(100, t0: mondayBerlin + 3 * 86_400), activity: "ride")
            _ = try await client.createRoute(
                me, Self.run(100, t0: mondayBerlin + 86_400), activity: "run", recording: true)

            let utc = try await client.send(.get, "/v1/users/me/log", token: me)
            #expect(utc.status == .ok)
            #expect(utc.json["period"] as? String == "week" && utc.json["tz"] as? String == "UTC")
            #expect(Self.items(utc).map { $0["key"] as? String } == ["2026-W47", "2026-W48"])

            let berlin = try await client.send(.get, "/v1/users/me/log?tz=Europe/Berlin", token: me)
            let week = try #require(Self.items(berlin).first)
            #expect(Self.items(berlin).count == 1)
            #expect(week["key"] as? String == "2026-W48")
            #expect(week["start"] as? String == "2026-11-23T00:00:00.000+01:00")
            #expect(week["count"] as? Int == 2)
            let distance =
                try #require(number(a[object: "stats"]["distance_m"])) + number(b[object: "stats"]["distance_m"])!
            #expect(abs(try #require(number(week["distance_m"])) - distance) < 1e-6)

            let runs = try await client.send(.get, "/v1/users/me/log?period=month&activity=run", token: me)
            #expect(Self.items(runs).map { $0["key"] as? String } == ["2026-11"])
            #expect(Self.items(runs).first?["count"] as? Int == 1)
            let bounded = try await client.send(
                .get, "/v1/users/me/log?period=year&from=2026-11-24T00:00:00Z&to=2027-01-01T00:00:00Z", token: me)
            #expect(Self.items(bounded).map { $0["count"] as? Int } == [1])

            for bad in ["tz=Mars/Olympus", "period=day", "activity=WALK", "from=yesterday"] {
                #expect(
                    try await client.send(.get, "/v1/users/me/log?\(bad)", token: me).status == .badRequest, "\(bad)")
            }
            let chart = try await client.send(.get, "/v1/users/me/log.svg?metric=time&tz=Europe/Berlin", token: me)
            #expect(chart.status == .ok)
            #expect(chart.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(try ParsedSVG(chart.text).elements("rect", class: "bar").count == 1)
            #expect(try await client.send(.get, "/v1/users/me/log.svg?metric=pace", token: me).status == .badRequest)
            #expect(try await client.send(.get, "/v1/users/me/log").status == .unauthorized)
        }
    }

    /// Routes stored before best efforts existed get them from the migration, which records its
    /// position and runs once.
    @Test func theMigrationComputesTheEffortsOfOlderRoutesOnce() async throws {
        try await withAppAndDatabase { client, database in
            let me = try await client.register("me")
            var ids: [String] = []
            for day in 0..<3 {
                let route = try await client.createRoute(
                    me, Self.run(t0: Fixture.t0 + Double(day) * 86_400), activity: "run")
                ids.append(try #require(route["id"] as? String))
            }
            // As a database from before: no efforts, no migration recorded.
            // (This app's own migration ran at its start, on an empty database, and is done.)
            _ = try await database.collection("best_efforts").deleteMany([:])
            _ = try await database.collection("migrations").deleteMany(["_id": "best_efforts"])
            #expect(Self.items(try await client.send(.get, "/v1/users/me/records", token: me)).isEmpty)

            let storage = Storage(database: database, clock: .system)
            let keeper = BestEffortsKeeper(
                bestEfforts: storage.bestEfforts, routes: storage.routes, buckets: storage.buckets)
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let backfill = BestEffortsBackfill(
                routes: storage.routes, progress: storage.bestEffortsMigration, keeper: keeper, clock: .system,
                logger: logger)
            var steps = 0
            while try await !backfill.step() { steps += 1 }
            #expect(steps == 1)  // one batch, then the empty one that marks it done
            #expect(try await storage.bestEffortsMigration.position().done)
            for id in ids {
                let efforts = Self.items(try await client.send(.get, "/v1/routes/\(id)/best_efforts", token: me))
                #expect(efforts.count == 6)
            }
            let records = Self.items(try await client.send(.get, "/v1/users/me/records", token: me))
            #expect(records.count == 6)
            // Done: another run does nothing.
            _ = try await database.collection("best_efforts").deleteMany([:])
            #expect(try await backfill.step())
            #expect(Self.items(try await client.send(.get, "/v1/users/me/records", token: me)).isEmpty)
        }
    }
}
