import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Users in the `users` collection: `_id` is the user id, the token only as `token_hash`.
package struct UserRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("users")
    }

    /// Indexes: token lookups go by the digest's unique index.
    package static let indexes = [
        MongoIndex(keys: ["token_hash": 1], name: "token_hash", unique: true),
        // Deletions a process left half-done (`leavingDue`): only leaving users have the field.
        MongoIndex(keys: ["leave_lease_until": 1], name: "leave_lease_until", sparse: true),
    ]

    /// Stores a new user; `false` when the id is taken.
    package func insert(_ user: UserRecord) async throws -> Bool {
        do {
            try await collection.insertOne(Self.document(user))
            return true
        } catch MongoError.duplicateKey {
            return false
        }
    }

    package func find(id: String) async throws -> UserRecord? {
        try await collection.findOne(["_id": .string(id)]).flatMap(Self.record)
    }

    package func find(tokenHash: Data) async throws -> UserRecord? {
        try await collection.findOne(["token_hash": .binary(subtype: 0, Array(tokenHash))]).flatMap(Self.record)
    }

    /// The registered users among `ids`, as `(id, name)`.
    package func names(of ids: [String]) async throws -> [FriendView] {
        guard !ids.isEmpty else { return [] }
        return try await collection.find(ids: Set(ids).map { .string($0) }, projection: ["name": 1]).compactMap {
            document in
            guard let id = document.string("_id"), let name = document.string("name") else { return nil }
            return FriendView(id: id, name: name)
        }
    }

    /// Sets the name and/or friends; returns the updated user.
    package func update(id: String, name: String?, friends: [String]?) async throws -> UserRecord? {
        var set: BSONDocument = [:]
        if let name { set["name"] = .string(name) }
        if let friends { set["friends"] = .array(friends.map { .string($0) }) }
        if !set.isEmpty {
            _ = try await collection.updateOne(filter: ["_id": .string(id)], update: ["$set": .document(set)])
        }
        return try await find(id: id)
    }

    /// Replaces the token digest: the old token stops working with this write.
    package func replaceTokenHash(id: String, with hash: Data) async throws {
        _ = try await collection.updateOne(
            filter: ["_id": .string(id)], update: ["$set": ["token_hash": .binary(subtype: 0, Array(hash))]])
    }

    /// Replaces the privacy zones and bumps their version.
    package func replacePrivacyZones(id: String, with zones: [PrivacyZone]) async throws {
        let values: [BSONValue] = zones.map {
            ["lat": .double($0.lat), "lon": .double($0.lon), "radius_m": .double($0.radiusM)]
        }
        try await collection.updateOne(
            filter: ["_id": .string(id)],
            update: ["$set": ["privacy_zones": .array(values)], "$inc": ["zones_version": 1]])
    }

    /// The owners' zones, for showing their routes to others: `[id: (zones, version)]`.
    package func privacy(of ids: [String]) async throws -> [String: (zones: [PrivacyZone], version: Int)] {
        guard !ids.isEmpty else { return [:] }
        let documents = try await collection.find(
            ids: Set(ids).map { .string($0) }, projection: ["privacy_zones": 1, "zones_version": 1])
        return Dictionary(
            documents.compactMap { document in
                document.string("_id").map { ($0, (Self.zones(document), document.int("zones_version") ?? 0)) }
            }, uniquingKeysWith: { first, _ in first })
    }

    package static func zones(_ document: BSONDocument) -> [PrivacyZone] {
        (document.array("privacy_zones") ?? []).compactMap { value in
            guard let zone = value.documentValue, let lat = zone.double("lat"), let lon = zone.double("lon"),
                let radius = zone.double("radius_m")
            else { return nil }
            return PrivacyZone(lat: lat, lon: lon, radiusM: radius)
        }
    }

    private static func document(_ user: UserRecord) -> BSONDocument {
        [
            "_id": .string(user.id),
            "name": .string(user.name),
            "friends": .array(user.friends.map { .string($0) }),
            "token_hash": .binary(subtype: 0, Array(user.tokenHash)),
            "created_at": .date(user.createdAt),
        ]
    }

    package static func record(_ document: BSONDocument) -> UserRecord? {
        guard let id = document.string("_id"), let name = document.string("name"),
            case .binary(_, let hash)? = document["token_hash"], let createdAt = document.date("created_at")
        else { return nil }
        let friends = document.array("friends")?.compactMap { value -> String? in
            if case .string(let id) = value { return id }
            return nil
        }
        return UserRecord(
            id: id, name: name, friends: friends ?? [], tokenHash: Data(hash), createdAt: createdAt,
            privacyZones: zones(document), zonesVersion: document.int("zones_version") ?? 0)
    }
}
