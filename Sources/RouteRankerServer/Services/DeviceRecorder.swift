import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Records what a tracker app sent into its device's route (API.md, "Points become routes"), and
/// counts the message: the shared behaviour of every tracker protocol.
struct DeviceRecorder: Sendable {
    /// How long each of a message's writes and reads (the key's device, the route's commit, the
    /// counters; for a route's first point the claim instead of the commit) waits for those of
    /// other phones when it finds none to share a command with.
    /// Phones report every few seconds each, so at a club's rate (200 points/s) few messages meet
    /// by chance: without waiting, a point cost 1.6 round trips (each a journal commit in the
    /// database and thread wake-ups here); 50 ms gathers about ten a command (0.27 round trips a
    /// point). It adds at most 3 × 50 ms to an answer the phone does not wait for; 20 ms cost a
    /// fifth more CPU a point, 100 ms no less (measured: docs/performance.md).
    static let linger: Duration = .milliseconds(50)

    /// How often one message is retried internally when another writer changed the device or the
    /// route in between (each retry re-reads both).
    static let attempts = 10

    let devices: DeviceRepository
    let routes: RouteRepository
    let buckets: PointBuckets
    let shares: ShareRepository
    let trips: DeviceTrips
    /// Serializes one device's messages within this process, so that they queue instead of
    /// failing each other's guards (across processes the guards still decide).
    let locks: RouteLocks
    let clock: WallClock
    /// The device routes this process committed last: the hot path's read of the route.
    let recent: RecentRoutes

    /// Records `report` for `device` and counts the message; returns how it counted. After this
    /// returns, the point (if recorded) and the count are durably written.
    @discardableResult
    func record(_ report: TrackerReport, device: DeviceRecord) async throws -> TrackOutcome {
        let outcome: TrackOutcome
        var recordedT: Double?
        switch report {
        case .nothing:
            outcome = .ignored
        case .unusable:
            outcome = .dropped
        case .point(let point):
            outcome = try await locks.withLock(device.id) { try await place(point, device) }
            if outcome == .recorded { recordedT = point.t }
        }
        let now = clock.now
        // `split_after_s` as read with the message: a change applies from the next point on.
        let idleAt = recordedT.map { _ in now.addingTimeInterval(Double(device.splitAfterS)) }
        try await devices.count(
            outcome, deviceID: device.id, now: now, recordedT: recordedT, idleAt: idleAt, linger: Self.linger)
        return outcome
    }

    /// Puts one point into the device's route, opening, splitting or leaving routes as the rules
    /// say. Each pass reads the device and its route afresh; a pass that loses a race to another
    /// writer starts over.
    private func place(_ point: TrackPoint, _ first: DeviceRecord) async throws -> TrackOutcome {
        var device = first
        for attempt in 0..<Self.attempts {
            if attempt > 0 {
                guard let fresh = try await devices.find(id: device.id) else { throw TrackerUnauthorized.revoked }
                device = fresh
            }
            if !device.finishing.isEmpty { try await trips.completePending(device) }
            guard let routeID = device.currentRoute else {
                if let outcome = refusedAsFirst(point, device) { return outcome }
                let id = NewID.make()
                let idleAt = clock.now.addingTimeInterval(Double(device.splitAfterS))
                guard try await devices.claim(device, route: id, idleAt: idleAt, linger: Self.linger) else { continue }
                if try await start(id, with: point, for: device) { return .recorded }
                continue
            }
            // The copy this process committed last, if any (a stale one fails the commit's version
            // guard and is read again below); else the stored route.
            let cached = attempt == 0 ? recent.get(routeID) : nil
            let found: StoredRoute?
            if let cached { found = cached } else { found = try await routes.find(id: routeID) }
            guard let route = found else {
                // Claimed but not created yet: the claimant died before creating it, or is creating
                // it right now (then one insert wins and the other pass starts over). Or it was
                // finished and deleted meanwhile: then the device no longer names it.
                if let outcome = refusedAsFirst(point, device) { return outcome }
                guard try await devices.find(id: device.id)?.currentRoute == routeID else { continue }
                if try await start(routeID, with: point, for: device) { return .recorded }
                continue
            }
            guard route.state == .recording else {
                // Finished by its owner by hand: kept as it is; the next point starts a new route.
                try await devices.detach(device, route: routeID)
                continue
            }
            if let last = route.accumulator.last, point.t - last.t > Double(device.splitAfterS) {
                // A gap ends the route: decided on the stored route, never on a copy.
                if cached != nil { continue }
                try await trips.finishCurrent(device, route: routeID, lastT: last.t)
                continue
            }
            var ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
            try await ingest.add([point])
            if ingest.duplicates > 0 { return .duplicates }
            do {
                // A dropped spike is committed too: the run of spikes carries over between requests.
                recent.put(try await ingest.commit(linger: Self.linger))
            } catch is VersionConflict {
                recent.forget(routeID)
                continue
            }
            return ingest.accepted > 0 ? .recorded : .dropped
        }
        throw VersionConflict()
    }

    /// Why `point` cannot start a route, if it cannot: not after the device's last recorded point
    /// (a duplicate), or too inaccurate (dropped: a dropped point starts no route; the first point
    /// of a route is never a spike).
    private func refusedAsFirst(_ point: TrackPoint, _ device: DeviceRecord) -> TrackOutcome? {
        if let lastT = device.lastT, !(point.t > lastT) { return .duplicates }
        if let acc = point.acc, acc > Activity.maxAccuracy { return .dropped }
        return nil
    }

    /// Creates the claimed route `id` with its first point: shared first (shares of a route that
    /// does not exist yet are invisible, and sharing is idempotent), then inserted with its
    /// readers. `false` when another writer created it first.
    private func start(_ id: String, with point: TrackPoint, for device: DeviceRecord) async throws -> Bool {
        for friend in device.shareWith {
            _ = try await shares.share(route: id, owner: device.owner, to: friend)
        }
        let route = StoredRoute(
            new: RouteRecord(
                id: id, owner: device.owner, name: DeviceRules.routeName(device: device.name, firstPointAt: point.t),
                activity: device.activity, state: .recording, createdAt: clock.now, annotations: [],
                accumulator: StatsAccumulator(activity: device.activity), version: 0, readers: device.shareWith))
        var ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
        try await ingest.add([point])
        do {
            // No linger here: between the claim and this insert the device names a route that does
            // not exist, and another process may create it meanwhile; if that route is then
            // finished and deleted as no trip before this insert lands, the insert brings it back
            // as a second recording route. The window is kept to the commands' own time (under
            // load, the start's upsert and the insert still gather behind commands under way).
            recent.put(try await ingest.commit())
            return true
        } catch is RouteAlreadyExists {
            return false
        }
    }
}

extension TrackerUnauthorized {
    /// The device was deleted (or its key replaced) while its message was being recorded.
    static let revoked = TrackerUnauthorized(message: "this device key is not valid")
}
