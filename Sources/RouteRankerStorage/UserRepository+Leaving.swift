import Foundation
import Mongo
import RouteRankerModels

/// Leaving (`DELETE /v1/users/me`): the user document is the deletion's tombstone. Marking it
/// replaces the token's digest (the token stops working with that write, before anything else
/// goes) and sets a lease; the process that holds the lease removes what the account owns, the
/// user document last. A process that dies half-way leaves the tombstone, and another process
/// takes it over once the lease has run out (`leavingDue`, `claimLeaving`), as the idle-route
/// sweeper does with device routes. Every step of the removal is idempotent, so doing one twice
/// is harmless.
extension UserRepository {
    /// How long a process may work on one deletion before another may take it over.
    package static let leaveLease: TimeInterval = 30

    /// Marks `id` as leaving, held by this process until `now` + the lease: the token stops
    /// working now. False when there is no such user.
    package func markLeaving(id: String, now: Date) async throws -> Bool {
        let result = try await collection.updateOne(
            filter: ["_id": .string(id)],
            update: [
                "$set": [
                    "token_hash": .binary(subtype: 0, Array(Secret.hash(Secret.generate()))),
                    "leave_lease_until": .date(Lease(from: now, for: Self.leaveLease).until),
                ],
                "$min": ["leaving_since": .date(now)],
            ])
        return result.matchedCount == 1
    }

    /// Users whose deletion was started but whose lease ran out by `now` (their process died).
    package func leavingDue(by now: Date, limit: Int) async throws -> [String] {
        try await collection.find(
            ["leave_lease_until": Lease.runOut(by: now)], sort: ["leave_lease_until": 1], limit: limit,
            projection: ["_id": 1]
        ).compactMap { $0.string("_id") }
    }

    /// Takes over the deletion of `id` if its lease has run out by `now`: one version-guarded write
    /// (the lease as read), so of two processes only one wins.
    package func claimLeaving(id: String, now: Date) async throws -> Bool {
        let result = try await collection.updateOne(
            filter: ["_id": .string(id), "leave_lease_until": Lease.runOut(by: now)],
            update: ["$set": ["leave_lease_until": .date(Lease(from: now, for: Self.leaveLease).until)]])
        return result.matchedCount == 1
    }

    /// Takes `id` out of every other person's friends list.
    package func removeFromFriends(_ id: String) async throws {
        _ = try await collection.updateMany(
            filter: ["friends": .string(id)], update: ["$pull": ["friends": .string(id)]])
    }

    /// Removes the (leaving) user document: the last step of a deletion; the id can be registered
    /// again afterwards.
    package func remove(id: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(id), "leaving_since": ["$exists": true]])
    }
}
