import Foundation
import Logging
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle

/// Leaving (API.md "Moving in, moving out, leaving"): the account and all it owns, gone. The
/// user document is the tombstone (`UserRepository.markLeaving`): marking it stops the token
/// first, so nobody acts as the account while it is being taken apart; then everything it owns
/// goes, each step idempotent, and the user document last. A process that dies half-way leaves
/// the tombstone; `PendingAccountRemovals` (in every process) finishes the job once its lease
/// has run out.
///
/// What goes, in this order: my devices (their keys stop working, so no tracker message starts
/// a route while the routes go); my routes, each as `DELETE /v1/routes/{id}` removes it (points,
/// shares I gave, links, group memberships in anyone's groups, stored paths, segment efforts,
/// best efforts; live followers get `gone`); the shares given to me; my groups; my segments with
/// every effort on them; my imports with their archives; my idempotency records; my best
/// efforts (any left); my id from other people's friends lists; the user document.
struct AccountRemoval: Sendable {
    let users: UserRepository
    let routes: RouteRepository
    let removal: RouteRemoval
    let shares: ShareRepository
    let groups: GroupRepository
    let segments: SegmentRepository
    let efforts: SegmentEfforts
    let devices: DeviceRepository
    let idempotency: IdempotencyRepository
    let bestEfforts: BestEffortRepository
    let imports: ImportRepository
    let archives: ArchiveChunks
    let clock: WallClock

    /// Starts the deletion of `id` (its token stops working now) and carries it out.
    func leave(_ id: String) async throws {
        guard try await users.markLeaving(id: id, now: clock.now) else { return }
        try await complete(id)
    }

    /// Removes everything `id` owns, then the user document. Safe to run again after any step.
    func complete(_ id: String) async throws {
        try await devices.deleteAll(owner: id)
        for route in try await routes.all(owner: id) {
            try Task.checkCancellation()
            try await removal.remove(route)
        }
        for route in try await shares.routeIDs(sharedWith: id) {
            _ = try await shares.revoke(route: route, to: id)
        }
        for group in try await groups.groups(of: id) {
            _ = try await groups.delete(id: group.id, owner: id)
        }
        for segment in try await segments.segments(of: id) {
            _ = try await segments.delete(id: segment.id, owner: id)
            try await efforts.segmentRemoved(segment.id)
        }
        for job in try await imports.deleteAll(owner: id) {
            try await archives.deleteAll(job: job)
        }
        try await idempotency.deleteAll(user: id)
        try await bestEfforts.deleteAll(owner: id)
        try await users.removeFromFriends(id)
        try await users.remove(id: id)
    }
}

/// Finishes the deletions that a process started and did not finish (it died, or the database
/// failed half-way): every `interval`, the tombstones whose lease ran out are claimed, one
/// version-guarded write each, and completed. Every process runs one.
struct PendingAccountRemovals: Service {
    let users: UserRepository
    let removal: AccountRemoval
    let clock: WallClock
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await PeriodicPasses.run(every: interval, on: clock, logger: logger, what: "pending account deletions") {
            try await sweepOnce()
        }
    }

    /// One pass: the deletions due now.
    func sweepOnce() async throws {
        for id in try await users.leavingDue(by: clock.now, limit: 20) {
            guard try await users.claimLeaving(id: id, now: clock.now) else { continue }
            try await removal.complete(id)
        }
    }
}
