import Foundation
import Mongo
import RouteRankerModels

/// Groups in `groups`.
package struct GroupRepository: Sendable {
    package static let maxRoutes = 1000

    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("groups")
    }

    package static let indexes = [
        MongoIndex(keys: ["owner": 1, "created_at": -1], name: "owner_created_at"),
        MongoIndex(keys: ["routes": 1], name: "routes"),
    ]

    package func insert(_ group: GroupRecord) async throws {
        try await collection.insertOne(Self.document(group))
    }

    /// The group if `owner` owns it; someone else's group is `nil` (the caller answers `404`).
    package func find(id: String, owner: String) async throws -> GroupRecord? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id), "owner": .string(owner)]).flatMap(Self.record)
    }

    /// The group `id` if `user` owns it, else the one `404` of groups (someone else's included).
    package func owned(_ id: String, by user: UserRecord) async throws -> GroupRecord {
        guard let group = try await find(id: id, owner: user.id) else { throw GroupNotVisible() }
        return group
    }

    /// My groups, newest first.
    package func groups(of owner: String) async throws -> [GroupRecord] {
        try await collection.find(["owner": .string(owner)], sort: ["created_at": -1, "_id": -1])
            .compactMap(Self.record)
    }

    package func replace(_ group: GroupRecord) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(group.id), "owner": .string(group.owner)],
            update: ["$set": ["name": .string(group.name), "routes": .array(group.routes.map { .string($0) })]])
    }

    package func delete(id: String, owner: String) async throws -> Bool {
        try await collection.deleteOne(["_id": .string(id), "owner": .string(owner)]) == 1
    }

    /// Removes a deleted route from every group that lists it.
    package func removeEverywhere(route: String) async throws {
        try await collection.updateMany(
            filter: ["routes": .string(route)], update: ["$pull": ["routes": .string(route)]])
    }

    private static func document(_ group: GroupRecord) -> BSONDocument {
        [
            "_id": .string(group.id), "owner": .string(group.owner), "name": .string(group.name),
            "routes": .array(group.routes.map { .string($0) }), "created_at": .date(group.createdAt),
        ]
    }

    private static func record(_ document: BSONDocument) -> GroupRecord? {
        guard let id = document.string("_id"), let owner = document.string("owner"),
            let name = document.string("name"), let createdAt = document.date("created_at")
        else { return nil }
        let routes = (document.array("routes") ?? []).compactMap(\.stringValue)
        return GroupRecord(id: id, owner: owner, name: name, routes: routes, createdAt: createdAt)
    }
}
