import Crypto
import Foundation
import Hummingbird
import Mongo

/// A running SHA-256 of what makes two create requests "the same": content type, query and body.
struct BodyHash {
    private var hasher = SHA256()

    init(_ request: Request) {
        hasher.update(data: Data((request.mediaType ?? "").utf8))
        hasher.update(data: Data([0]))
        hasher.update(data: Data((request.uri.query ?? "").utf8))
        hasher.update(data: Data([0]))
    }

    mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
    }

    func finalize() -> String {
        hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// `Idempotency-Key` records in `idempotency`, one per (user, key): `pending` while the first
/// request runs, then `done` with the route it created and the request's fingerprint.
struct IdempotencyRepository: Sendable {
    /// A pending record older than this belongs to a request that died; a retry may take it over.
    static let abandonAfter: TimeInterval = 600

    let collection: MongoCollection

    init(database: MongoDatabase) {
        collection = database.collection("idempotency")
    }

    enum Claim {
        /// This request is the first: go ahead, then `complete` or `release`.
        case claimed(id: String)
        /// The first request is still running.
        case inProgress
        /// The first request finished: it created `route` from a request with `fingerprint`.
        case done(route: String, fingerprint: String)
    }

    /// The key as sent: 1–128 characters, else `400`.
    static func key(_ request: Request) throws -> String? {
        guard let key = request.headers[.init("Idempotency-Key")!] else { return nil }
        guard (1...128).contains(key.count) else {
            throw APIError.invalid("'Idempotency-Key' must be 1–128 characters", field: "Idempotency-Key")
        }
        return key
    }

    func claim(user: String, key: String) async throws -> Claim {
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

    func complete(_ id: String, route: String, fingerprint: String) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(id)],
            update: ["$set": ["state": "done", "route": .string(route), "fingerprint": .string(fingerprint)]])
    }

    /// Forgets a claim whose request failed, so that a retry runs afresh.
    func release(_ id: String) async {
        _ = try? await collection.deleteOne(["_id": .string(id), "state": "pending"])
    }

    private static func id(user: String, key: String) -> String {
        SHA256.hash(data: Data("\(user)\n\(key)".utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
