import Foundation
import Mongo

/// A named group of routes, as stored in `groups`.
struct GroupRecord: Sendable, Equatable {
    var id: String
    var owner: String
    var name: String
    /// Member route ids in group order. A member that stops being visible stays here (and counts
    /// again if it becomes visible again); a deleted route is removed.
    var routes: [String]
    var createdAt: Date
}

/// Groups in `groups`.
struct GroupRepository: Sendable {
    static let maxRoutes = 1000

    let collection: MongoCollection

    init(database: MongoDatabase) {
        collection = database.collection("groups")
    }

    static let indexes = [
        MongoIndex(keys: ["owner": 1, "created_at": -1], name: "owner_created_at"),
        MongoIndex(keys: ["routes": 1], name: "routes"),
    ]

    func insert(_ group: GroupRecord) async throws {
        try await collection.insertOne(Self.document(group))
    }

    /// The group if `owner` owns it; someone else's group is `nil` (the caller answers `404`).
    func find(id: String, owner: String) async throws -> GroupRecord? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id), "owner": .string(owner)]).flatMap(Self.record)
    }

    /// The group `id` if `user` owns it, else the one `404` of groups (someone else's included).
    func owned(_ id: String, by user: UserRecord) async throws -> GroupRecord {
        guard let group = try await find(id: id, owner: user.id) else { throw GroupNotVisible() }
        return group
    }

    /// My groups, newest first.
    func groups(of owner: String) async throws -> [GroupRecord] {
        try await collection.find(["owner": .string(owner)], sort: ["created_at": -1, "_id": -1])
            .compactMap(Self.record)
    }

    func replace(_ group: GroupRecord) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(group.id), "owner": .string(group.owner)],
            update: ["$set": ["name": .string(group.name), "routes": .array(group.routes.map { .string($0) })]])
    }

    func delete(id: String, owner: String) async throws -> Bool {
        try await collection.deleteOne(["_id": .string(id), "owner": .string(owner)]) == 1
    }

    /// Removes a deleted route from every group that lists it.
    func removeEverywhere(route: String) async throws {
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
