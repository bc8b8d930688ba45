import Foundation
import HummingbirdTesting
import Mongo
import RouteRankerServer
import RouteRankerStorage
import TestSupport
import Testing

/// The write that gives a device its new route, and the idle sweep: a route just claimed is never
/// due, whatever the finish before it left in `due_at`.
///
/// A gap's finish sets `due_at` to the moment of the finish (so that a crash right after it is
/// completed by the sweep); the claim that follows used to leave it there, and until the message's
/// counters moved it on, a sweep in any process saw the new route as idle and deleted it as no
/// trip — a point answered `200` and then lost (seen in CI under load).
@Suite struct DeviceClaimTests {
    @Test func aRouteJustClaimedIsNotDueAndAPendingFinishComesFirst() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada")
            let made = try await client.createDevice(ada, owner: "ada", #""name":"Phone","split_after_s":60"#)
            #expect(try await client.ownTracksPoint(made, lat: 52.52, lon: 13.405, tst: 1_764_000_000).status == .ok)
            let devices = Storage(database: database, clock: .system).devices
            let now = Date()
            var device = try #require(try await devices.find(id: made.id))
            let first = try #require(device.currentRoute)
            // A gap's finish, as `DeviceTrips.finishCurrent` makes it: due at once.
            #expect(try await devices.retire(device, route: first, lastT: nil, dueAt: nil, now: now))
            device = try #require(try await devices.find(id: made.id))
            #expect(try await devices.due(by: now, limit: 10).map(\.id) == [made.id])
            // While the finish is pending, no new route is claimed.
            #expect(try await !devices.claim(device, route: "next-route", idleAt: now.addingTimeInterval(60)))
            try await devices.finished(deviceID: made.id, route: first)
            device = try #require(try await devices.find(id: made.id))
            #expect(try await devices.claim(device, route: "next-route", idleAt: now.addingTimeInterval(60)))
            // The new route is not idle before its split: the sweep leaves the device alone.
            #expect(try await devices.due(by: now.addingTimeInterval(59), limit: 10).isEmpty)
            #expect(try await devices.due(by: now.addingTimeInterval(61), limit: 10).map(\.id) == [made.id])
        }
    }
}
