import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerServer
import TestSupport
import Testing

/// How a device's points become routes: the split, the idle finish, the trip rule, `share_with`,
/// and one recording route per device under concurrency.
@Suite struct DeviceTripsTests {
    static let t0 = 1_764_000_000.0

    /// Posts a walk of `count` points, 10 s and `step` metres apart, starting at `t` and `from` metres.
    static func walk(
        _ client: any TestClientProtocol, _ device: TestDevice, from: Double = 0, step: Double = 20, t: Double,
        count: Int
    ) async throws {
        for i in 0..<count {
            let response = try await client.ownTracksPoint(
                device, lat: Walk.lat, lon: Walk.lon(metres: from + Double(i) * step), tst: t + Double(i) * 10)
            #expect(response.status == .ok)
        }
    }

    @Test func aGapSplitsAndTheTripsAreNamedAfterTheirFirstPoint() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(
                token, owner: "ada", #""name":"Phone","activity":"ride","split_after_s":60"#)
            try await Self.walk(client, device, t: Self.t0, count: 15)  // 280 m
            let first = try #require(try await client.device(token, device.id)["current_route"] as? String)
            // 60 s after the last point is no gap; 61 s is.
            let t14 = Self.t0 + 140
            #expect(
                try await client.ownTracksPoint(device, lat: Walk.lat, lon: Walk.lon(metres: 300), tst: t14 + 60).status
                    == .ok)
            #expect(try await client.device(token, device.id)["current_route"] as? String == first)
            #expect(
                try await client.ownTracksPoint(device, lat: Walk.lat, lon: Walk.lon(metres: 320), tst: t14 + 121)
                    .status == .ok)
            let second = try #require(try await client.device(token, device.id)["current_route"] as? String)
            #expect(second != first)
            let kept = try await client.send(.get, "/v1/routes/\(first)", token: token).json
            #expect(kept["state"] as? String == "finished")
            #expect(kept["name"] as? String == "Phone 2025-11-24 16:00")
            #expect(kept["activity"] as? String == "ride")
            #expect((kept["stats"] as? JSONObject)?["points"] as? Int == 16)
            let open = try await client.send(.get, "/v1/routes/\(second)", token: token).json
            #expect(open["state"] as? String == "recording")
            #expect(open["name"] as? String == "Phone 2025-11-24 16:04")
            #expect(try await client.counts(token, device.id)["recorded"] == 17)
        }
    }

    @Test func aTripMustGoSomewhere() async throws {
        try await withApp { client in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(
                ada, owner: "ada", #""name":"Phone","split_after_s":60,"share_with":["bob"]"#)
            // A night at home: 20 points within 40 m of the first, then a gap.
            try await Self.walk(client, device, step: 2, t: Self.t0, count: 20)
            let home = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            #expect(try await client.send(.get, "/v1/routes/\(home)", token: bob).status == .ok)
            // A single point, then a gap: deleted too.
            try await Self.walk(client, device, t: Self.t0 + 1000, count: 1)
            let single = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            // Exactly 200 m away is a trip.
            try await Self.walk(client, device, step: 200, t: Self.t0 + 2000, count: 2)
            let trip = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            try await Self.walk(client, device, t: Self.t0 + 3000, count: 1)
            #expect(try await client.send(.get, "/v1/routes/\(home)", token: ada).status == .notFound)
            #expect(try await client.send(.get, "/v1/routes/\(single)", token: ada).status == .notFound)
            #expect(try await client.send(.get, "/v1/routes/\(home)/points", token: bob).status == .notFound)
            #expect(
                try await client.send(.get, "/v1/routes/\(trip)", token: ada).json["state"] as? String == "finished")
            // Cascaded like DELETE /v1/routes: bob's inbox holds the trip and the open route only.
            let inbox = try await client.send(.get, "/v1/shares", token: bob).json["items"] as? [JSONObject] ?? []
            #expect(Set(inbox.compactMap { $0["route"] as? String }).count == 2)
            #expect(!inbox.contains { $0["route"] as? String == home })
            #expect(try await client.routes(ada).count == 2)
        }
    }

    @Test func anIdleRouteIsFinishedByTheServerAndTheNextPointStartsANewOne() async throws {
        let clock = ManualClock.followingRealTime()
        try await withApp(configure: {
            $0.clock = clock.clock
            $0.sweepInterval = .milliseconds(100)
        }) { client in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(
                ada, owner: "ada", #""name":"Phone","split_after_s":60,"share_with":["bob"]"#)
            try await Self.walk(client, device, t: Self.t0, count: 12)
            let first = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            // The friend follows it while it records.
            #expect(
                try await client.send(.get, "/v1/routes/\(first)", token: bob).json["state"] as? String == "recording")
            // 50 s on, the sweep (which sleeps on the same clock) comes round and leaves it.
            clock.advance(by: .seconds(50))
            await clock.waitForSleepers(LeaseTakeoverTests.periodicServices)
            #expect(try await client.device(ada, device.id)["current_route"] as? String == first)
            clock.advance(by: .seconds(11))
            try await Self.waitUntil { try await client.device(ada, device.id)["current_route"] is NSNull }
            try await Self.waitUntil {
                try await client.send(.get, "/v1/routes/\(first)", token: bob).json["state"] as? String == "finished"
            }
            // The next point starts a new route whatever its time gap (5 s here).
            try await Self.walk(client, device, from: 240, t: Self.t0 + 115, count: 1)
            let second = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            #expect(second != first)
            // An idle route that went nowhere is deleted by the sweep.
            clock.advance(by: .seconds(61))
            try await Self.waitUntil { try await client.device(ada, device.id)["current_route"] is NSNull }
            try await Self.waitUntil {
                try await client.send(.get, "/v1/routes/\(second)", token: ada).status == .notFound
            }
            #expect(try await client.routes(ada).map { $0["id"] as? String } == [first])
        }
    }

    @Test func aRouteFinishedByHandIsKeptAndTheNextPointStartsAnother() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada", #""name":"Phone""#)
            try await Self.walk(client, device, step: 1, t: Self.t0, count: 2)
            let first = try #require(try await client.device(token, device.id)["current_route"] as? String)
            #expect(try await client.send(.post, "/v1/routes/\(first)/finish", token: token).status == .ok)
            try await Self.walk(client, device, from: 5, step: 1, t: Self.t0 + 30, count: 1)
            let second = try #require(try await client.device(token, device.id)["current_route"] as? String)
            #expect(second != first)
            #expect(try await client.send(.get, "/v1/routes/\(first)", token: token).status == .ok)
            // Deleting the device finishes its route (here: not a trip, so it goes); routes stay.
            #expect(try await client.send(.delete, "/v1/devices/\(device.id)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/v1/routes/\(second)", token: token).status == .notFound)
            #expect(try await client.send(.get, "/v1/routes/\(first)", token: token).status == .ok)
        }
    }

    @Test func twoPhonesAtOnceEachGetOneRoute() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let a = try await client.createDevice(token, owner: "ada", #""name":"A""#)
            let b = try await client.createDevice(token, owner: "ada", #""name":"B""#)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for device in [a, b] {
                    group.addTask { try await Self.walk(client, device, t: Self.t0, count: 15) }
                }
                try await group.waitForAll()
            }
            let routes = try await client.routes(token)
            #expect(routes.count == 2)
            #expect(routes.allSatisfy { $0["state"] as? String == "recording" })
            #expect(Set(routes.compactMap { ($0["name"] as? String)?.first }) == ["A", "B"])
        }
    }

    /// A club's start: many phones send their first point at the same moment. Their claims, starts
    /// and inserts share commands; each phone still gets one route of its own, with its points,
    /// found by its start.
    @Test func manyPhonesStartingTogetherEachGetTheirOwnRoute() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            var devices: [TestDevice] = []
            for n in 0..<24 { devices.append(try await client.createDevice(token, owner: "ada", #""name":"P\#(n)""#)) }
            for round in 0..<2 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (n, device) in devices.enumerated() {
                        group.addTask {
                            let answer = try await client.ownTracksPoint(
                                device, lat: Walk.lat + Double(n) * 0.01, lon: Walk.lon(metres: Double(round) * 10),
                                tst: Self.t0 + Double(round) * 5)
                            #expect(answer.status == .ok)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let routes = try await client.routes(token)
            #expect(routes.count == devices.count)
            #expect(routes.allSatisfy { ($0["stats"] as? JSONObject)?["points"] as? Int == 2 })
            var current: Set<String> = []
            for device in devices {
                let counts = try await client.counts(token, device.id)
                #expect(counts["recorded"] == 2)
                current.insert(try #require(try await client.device(token, device.id)["current_route"] as? String))
            }
            #expect(current == Set(routes.compactMap { $0["id"] as? String }))
            // Each start was recorded: a search at the fifth phone's start finds its route first.
            let near = try await client.send(
                .get, "/v1/routes?near=\(Walk.lat + 0.04),\(Walk.lon)&radius_m=100", token: token)
            let found = near.json["items"] as? [JSONObject] ?? []
            #expect(found.count == 1 && (found.first?["name"] as? String)?.hasPrefix("P4") == true)
        }
    }

    @Test func oneDeviceAtTwoServersAtOnceNeverRecordsIntoTwoRoutes() async throws {
        let database = TestEnvironment.uniqueDatabaseName("trips")
        try await withApp(configure: { $0.database = database }) { first in
            try await withApp(configure: { $0.database = database }) { second in
                let token = try await first.register("ada")
                let device = try await first.createDevice(token, owner: "ada", #""name":"Phone","split_after_s":60"#)
                // Four rounds of trips split by gaps; within a round both servers get points at once.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, client) in [first, second].enumerated() {
                        group.addTask {
                            for round in 0..<4 {
                                let t = Self.t0 + Double(round) * 1000 + Double(index) * 5
                                try await Self.walk(client, device, from: Double(index) * 10, t: t, count: 12)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let routes = try await first.routes(token)
                #expect(routes.filter { $0["state"] as? String == "recording" }.count == 1)
                let counts = try await second.counts(token, device.id)
                #expect(counts["received"] == 96)
                #expect(counts["recorded"]! + counts["duplicates"]! + counts["dropped"]! + counts["ignored"]! == 96)
                // Out-of-order arrivals may make a one-point route that the trip rule deletes, so
                // the kept routes hold at most the recorded points.
                let total = routes.compactMap { ($0["stats"] as? JSONObject)?["points"] as? Int }.reduce(0, +)
                #expect(total <= counts["recorded"]! && total > 0)
            }
        }
    }

    /// Polls `condition` every 20 ms for up to 30 s.
    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<1500 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the condition did not hold within 30 s")
    }
}
