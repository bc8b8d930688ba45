import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// How a device's routes end: the server finishes a device route on a gap, when it is idle, or
/// when the device is deleted, and then keeps it only if it is a trip (API.md, "A trip must go
/// somewhere").
///
/// A finish is made crash-safe by the device document: the route first moves from
/// `current_route` to `finishing` (one guarded write), then the route is finished and judged, then
/// it leaves `finishing`. Whatever step a process dies at, the route is still named in
/// `finishing` and the device has a `due_at`, so the next point or the sweep (in any process)
/// completes it; every step is idempotent.
struct DeviceTrips: Sendable {
    /// A trip has some point at least this far (geodesic) from its first.
    static let minTripDistanceM = 200.0

    let devices: DeviceRepository
    let routes: RouteRepository
    let buckets: PointBuckets
    let finisher: RouteFinisher
    let removal: RouteRemoval
    let clock: WallClock

    /// Finishes the device's current route `route` (read with its last point at `lastT`); nothing
    /// if another writer already took it off the device. `dueAt`, when given, must still be the
    /// device's: the idle sweep loses to a point recorded meanwhile.
    func finishCurrent(_ device: DeviceRecord, route: String, lastT: Double?, dueAt: Date? = nil) async throws {
        guard try await devices.retire(device, route: route, lastT: lastT, dueAt: dueAt, now: clock.now) else { return }
        try await complete(deviceID: device.id, route: route)
    }

    /// Completes every finish the device has pending.
    func completePending(_ device: DeviceRecord) async throws {
        for route in device.finishing { try await complete(deviceID: device.id, route: route) }
    }

    /// Deletes `route` if it still records and is no trip, else finishes it (a route already
    /// finished — by this sweep before a crash, or by its owner's hand — is kept as it is), and
    /// takes it off the device's `finishing`. The trip rule is decided before any finish, so a
    /// trip that went nowhere is never `finished` for its followers: they get `gone`.
    func complete(deviceID: String, route id: String) async throws {
        for _ in 0..<10 {
            guard let route = try await routes.find(id: id) else { break }
            if route.state == .recording, try await !isTrip(route) {
                try await removal.remove(route)
                break
            }
            do { _ = try await finisher.finish(route) } catch is VersionConflict { continue }
            break
        }
        try await devices.finished(deviceID: deviceID, route: id)
    }

    /// At least 2 points and some point at least 200 m from the first.
    func isTrip(_ route: StoredRoute) async throws -> Bool {
        guard route.pointCount >= 2, let first = route.accumulator.first else { return false }
        for try await chunk in buckets.read(route) {
            for point in chunk
            where Geodesic.distance(from: first.coordinate, to: point.coordinate) >= Self.minTripDistanceM {
                return true
            }
        }
        return false
    }

    /// The sweep's work on one due device: pending finishes, an idle route, a deletion.
    func sweep(_ device: DeviceRecord) async throws {
        let now = clock.now
        try await completePending(device)
        if let route = device.currentRoute, let due = device.dueAt, due <= now {
            try await finishCurrent(device, route: route, lastT: device.lastT, dueAt: due)
        }
        if device.deleted {
            guard let current = try await devices.findAny(id: device.id) else { return }
            try await completePending(current)
            try await devices.remove(id: device.id)
        } else {
            try await devices.clearDue(device, now: clock.now)
        }
    }
}
