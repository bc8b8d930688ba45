import Foundation
import Mongo
import RouteRankerModels

/// Links in `links`; a revoked link is deleted.
package struct LinkRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("links")
    }

    package static let indexes = [
        MongoIndex(keys: ["secret_hash": 1], name: "secret_hash", unique: true),
        MongoIndex(keys: ["route": 1, "created_at": -1], name: "route_created_at"),
    ]

    package func insert(_ link: LinkRecord) async throws {
        try await collection.insertOne([
            "_id": .string(link.id), "route": .string(link.route), "owner": .string(link.owner),
            "secret_hash": .binary(subtype: 0, Array(link.secretHash)), "created_at": .date(link.createdAt),
            "expires_at": .date(link.expiresAt),
        ])
    }

    package func find(secretHash: Data) async throws -> LinkRecord? {
        try await collection.findOne(["secret_hash": .binary(subtype: 0, Array(secretHash))]).flatMap(Self.record)
    }

    /// The links of `route`, newest first.
    package func links(of route: String) async throws -> [LinkRecord] {
        try await collection.find(["route": .string(route)], sort: ["created_at": -1, "_id": -1]).compactMap(
            Self.record)
    }

    /// Revokes link `id` of `route`; whether it existed.
    package func revoke(id: String, route: String) async throws -> Bool {
        try await collection.deleteOne(["_id": .string(id), "route": .string(route)]) == 1
    }

    package func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    private static func record(_ document: BSONDocument) -> LinkRecord? {
        guard let id = document.string("_id"), let route = document.string("route"),
            let owner = document.string("owner"), let hash = document.binary("secret_hash"),
            let createdAt = document.date("created_at"), let expiresAt = document.date("expires_at")
        else { return nil }
        return LinkRecord(
            id: id, route: route, owner: owner, secretHash: Data(hash), createdAt: createdAt, expiresAt: expiresAt)
    }
}
