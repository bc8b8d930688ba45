import Foundation
import HummingbirdTesting
import Testing

/// A device's trips are ordinary routes (API.md "Recording from the apps people already have"):
/// a friend in the device's `share_with` follows the trip live while the phone records it, sees
/// it `finished` when a gap ends it, and `gone` when the trip rule deletes a trip that went nowhere.
@Suite(.serialized) struct DeviceLiveTests {
    static let t0 = 1_764_000_000.0

    @Test func aFriendInShareWithFollowsTheTripLiveUntilItIsFinished() async throws {
        try await withLiveApp { client, port in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(
                ada, owner: "ada", #""name":"Phone","split_after_s":60,"share_with":["bob"]"#)
            try await DeviceTripsTests.walk(client, device, step: 60, t: Self.t0, count: 3)
            let trip = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            let follower = try LiveFollowingTests.follow(port, "/v1/routes/\(trip)/live", token: bob)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 3 })
            #expect(follower.status == 200)
            // Each point the phone posts reaches the friend within 1 s of its answer.
            for i in 3..<6 {
                try await DeviceTripsTests.walk(
                    client, device, from: Double(i) * 60, step: 60, t: Self.t0 + Double(i) * 10, count: 1)
                #expect(await follower.wait(seconds: 1) { $0.points.count == i + 1 }, "point \(i) within 1 s")
            }
            LiveFollowingTests.expectContiguous(follower, from: 0)
            // A point after a gap finishes the trip (300 m: kept) and starts the next one.
            try await DeviceTripsTests.walk(client, device, from: 400, t: Self.t0 + 1000, count: 1)
            #expect(await follower.wait { $0.ended })
            #expect(follower.events.last?.event == "finished")
            #expect(follower.events.last?.json["id"] as? String == trip)
            #expect(try await client.device(ada, device.id)["current_route"] as? String != trip)
        }
    }

    @Test func aTripThatWentNowhereIsGoneForItsFollower() async throws {
        try await withLiveApp { client, port in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(
                ada, owner: "ada", #""name":"Phone","split_after_s":60,"share_with":["bob"]"#)
            try await DeviceTripsTests.walk(client, device, step: 5, t: Self.t0, count: 4)  // 15 m
            let home = try #require(try await client.device(ada, device.id)["current_route"] as? String)
            let follower = try LiveFollowingTests.follow(port, "/v1/routes/\(home)/live", token: bob)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 4 })
            try await DeviceTripsTests.walk(client, device, t: Self.t0 + 1000, count: 1)
            #expect(await follower.wait { $0.ended })
            #expect(follower.events.last?.event == "gone")
        }
    }
}
