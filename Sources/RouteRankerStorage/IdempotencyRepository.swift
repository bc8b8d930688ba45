import Crypto
import Foundation
import Mongo
import RouteRankerModels

/// `Idempotency-Key` records in `idempotency`, one per (user, key): `pending` while the first
/// request runs, then `done` with the route it created and the request's fingerprint.
package struct IdempotencyRepository: Sendable {
    /// A pending record older than this belongs to a request that died; a retry may take it over.
    package static let abandonAfter: TimeInterval = 600

    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("idempotency")
    }

    package enum Claim {
        /// This request is the first: go ahead, then `complete` or `release`.
        case claimed(id: String)
        /// The first request is still running.
        case inProgress
        /// The first request finished: it created `route` from a request with `fingerprint`.
        case done(route: String, fingerprint: String)
    }

    package func claim(user: String, key: String) async throws -> Claim {
        let id = Self.id(user: user, key: key)
        let now = Date.now
        do {
            try await collection.insertOne([
                "_id": .string(id), "user": .string(user), "state": "pending", "created_at": .date(now),
            ])
            return .claimed(id: id)
        } catch MongoError.duplicateKey {
            guard let record = try await collection.findOne(["_id": .string(id)]) else {
                return try await claim(user: user, key: key)  // released in between
            }
            if record.string("state") == "done", let route = record.string("route"),
                let fingerprint = record.string("fingerprint")
            {
                return .done(route: route, fingerprint: fingerprint)
            }
            let started = record.date("created_at") ?? now
            if now.timeIntervalSince(started) > Self.abandonAfter {
                let taken = try await collection.updateOne(
                    filter: ["_id": .string(id), "state": "pending", "created_at": .date(started)],
                    update: ["$set": ["created_at": .date(now)]])
                if taken.matchedCount == 1 { return .claimed(id: id) }
            }
            return .inProgress
        }
    }

    package func complete(_ id: String, route: String, fingerprint: String) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(id)],
            update: ["$set": ["state": "done", "route": .string(route), "fingerprint": .string(fingerprint)]])
    }

    /// Forgets a claim whose request failed, so that a retry runs afresh.
    package func release(_ id: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(id), "state": "pending"])
    }

    private static func id(user: String, key: String) -> String {
        Hex.string(SHA256.hash(data: Data("\(user)\n\(key)".utf8)))
    }
}
