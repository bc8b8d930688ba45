import Crypto
import Foundation
import Mongo
import RouteRankerModels

/// `Idempotency-Key` records in `idempotency`, one per (user, key). The record fixes, at the first
/// claim, the id of the route the key creates: every attempt with the key creates that one id, so
/// two attempts can never make two routes, and an attempt whose answer was lost (a write concern
/// error, a dropped connection) is found by the next one, which replays it.
///
/// A claim is a lease, held by one attempt (`owner`, a random token) until `lease_until`: `pending`
/// while it runs, `released` when it ended without a `2xx` (the next attempt takes over at once),
/// `done` with the route and the request's fingerprint. A lease left by a process that died (or
/// by an attempt that could not even release it, the database gone) is taken over once it has
/// run out; the take-over is an update guarded by the owner it replaces, so of two retries racing
/// for it one wins and the other is told the key is in use (`409`).
package struct IdempotencyRepository: Sendable {
    /// How long an attempt holds its key: a retry sooner is `409`, later takes over.
    package static let lease: TimeInterval = 30

    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("idempotency")
    }

    /// The key held by one attempt.
    package struct Holding: Sendable {
        package var id: String
        /// The route this key creates, whichever attempt does it.
        package var route: String
        /// This attempt's own token: only it may complete or release the claim.
        package var token: String
        /// An attempt before this one held the key and may have created `route` already.
        package var resumed: Bool
    }

    package enum Claim: Sendable {
        /// This attempt holds the key: go ahead, then `complete` or `release`.
        case claimed(Holding)
        /// Another attempt holds the key, for at most `seconds` more (its lease).
        case inProgress(seconds: Int)
        /// An attempt finished: it created `route` from a request with `fingerprint`.
        case done(route: String, fingerprint: String)
    }

    /// Claims `key` of `user` for this attempt (`now` is the server's clock).
    package func claim(user: String, key: String, now: Date) async throws -> Claim {
        let id = Self.id(user: user, key: key)
        let token = NewID.make()
        let route = NewID.make()
        do {
            try await collection.insertOne([
                "_id": .string(id), "user": .string(user), "state": "pending", "route": .string(route),
                "owner": .string(token), "lease_until": .date(Lease(from: now, for: Self.lease).until),
                "created_at": .date(now),
            ])
            return .claimed(Holding(id: id, route: route, token: token, resumed: false))
        } catch MongoError.duplicateKey {
            return try await claimTaken(id: id, token: token, route: route, user: user, key: key, now: now)
        } catch {
            // The insert may have been stored though its answer was lost (a write concern error, a
            // dropped connection): let the next attempt have the key at once rather than after the
            // lease, if the database takes this; the request's own error is the answer either way.
            _ = try? await collection.updateOne(
                filter: ["_id": .string(id), "owner": .string(token), "state": "pending"],
                update: ["$set": ["state": "released"]])
            throw error
        }
    }

    /// The key is recorded already: its outcome, or the lease of another attempt, or the claim
    /// taken over from an attempt that released it or whose lease ran out.
    private func claimTaken(id: String, token: String, route: String, user: String, key: String, now: Date)
        async throws -> Claim
    {
        guard let record = try await collection.findOne(["_id": .string(id)]) else {
            return try await claim(user: user, key: key, now: now)  // deleted in between
        }
        switch Self.finding(record, now: now) {
        case .done(let route, let fingerprint): return .done(route: route, fingerprint: fingerprint)
        case .inProgress(let seconds): return .inProgress(seconds: seconds)
        case .free: break
        }
        var guardFilter: BSONDocument = ["_id": .string(id), "state": record["state"] ?? .null]
        guardFilter["owner"] = record["owner"] ?? ["$exists": false]
        let kept = record.string("route") ?? route
        let taken = try await collection.updateOne(
            filter: guardFilter,
            update: [
                "$set": [
                    "state": "pending", "route": .string(kept), "owner": .string(token),
                    "lease_until": .date(Lease(from: now, for: Self.lease).until),
                ]
            ])
        guard taken.matchedCount == 1 else { return .inProgress(seconds: Int(exactly: Self.lease) ?? 30) }
        return .claimed(Holding(id: id, route: kept, token: token, resumed: true))
    }

    /// What a claim finds in a key's record at `now`, decided without the database.
    enum Finding: Equatable {
        /// An attempt finished: the claim replays it.
        case done(route: String, fingerprint: String)
        /// Another attempt's lease holds for `seconds` more.
        case inProgress(seconds: Int)
        /// Released, or its lease ran out by `now`: the claim may take it over.
        case free
    }

    /// The decision of a claim on a recorded key: its outcome, or the lease that holds it, or free.
    static func finding(_ record: BSONDocument, now: Date) -> Finding {
        if record.string("state") == "done", let route = record.string("route"),
            let fingerprint = record.string("fingerprint")
        {
            return .done(route: route, fingerprint: fingerprint)
        }
        // Records from before leases have `created_at` alone: theirs ran out `lease` after it.
        let lease =
            record.date("lease_until").map(Lease.init(until:))
            ?? record.date("created_at").map { Lease(from: $0, for: Self.lease) }
        if record.string("state") == "pending", let lease, lease.holds(at: now) {
            return .inProgress(seconds: lease.secondsLeft(at: now))
        }
        return .free
    }

    /// Records the outcome of the attempt that holds the claim. An attempt whose lease was taken
    /// over meanwhile changes nothing: the one that took it creates the same route id, finds it
    /// there, and records it.
    package func complete(_ holding: Holding, fingerprint: String) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(holding.id), "owner": .string(holding.token)],
            update: [
                "$set": ["state": "done", "route": .string(holding.route), "fingerprint": .string(fingerprint)],
                "$unset": ["lease_until": ""],
            ])
    }

    /// Removes every record of `user`'s keys (leaving).
    package func deleteAll(user: String) async throws {
        _ = try await collection.deleteMany(["user": .string(user)])
    }

    /// Lets the next attempt take the key at once: this one ended without a `2xx`. The route id
    /// stays with the key, in case this attempt's route was stored after all. Tried twice (the
    /// update is guarded by this attempt's token, so repeating it is harmless): the failure that
    /// ended the request may have hit the database a moment ago; if both fail, the lease runs out.
    package func release(_ holding: Holding) async throws {
        let filter: BSONDocument = ["_id": .string(holding.id), "owner": .string(holding.token), "state": "pending"]
        do {
            _ = try await collection.updateOne(filter: filter, update: ["$set": ["state": "released"]])
        } catch {
            _ = try await collection.updateOne(filter: filter, update: ["$set": ["state": "released"]])
        }
    }

    private static func id(user: String, key: String) -> String {
        Hex.string(SHA256.hash(data: Data("\(user)\n\(key)".utf8)))
    }
}
