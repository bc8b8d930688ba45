import Foundation
import Mongo

/// A route shared with a user, as stored in `shares` (`_id` `"<route>:<to>"`).
struct ShareRecord: Sendable, Equatable {
    var route: String
    var owner: String
    var to: String
    var sharedAt: Date
}

/// Shares in `shares`. The `_id` is derived from (route, recipient), so "is this route shared with
/// this user" is one `_id` lookup, and sharing twice cannot create two shares.
struct ShareRepository: Sendable {
    let collection: MongoCollection
    let clock: WallClock

    init(database: MongoDatabase, clock: WallClock) {
        collection = database.collection("shares")
        self.clock = clock
    }

    static let indexes = [
        MongoIndex(keys: ["to": 1, "shared_at": -1], name: "to_shared_at"),
        MongoIndex(keys: ["route": 1, "to": 1], name: "route_to", unique: true),
    ]

    static func id(route: String, to: String) -> String { "\(route):\(to)" }

    /// The (route, recipient) a share `_id` names; route ids hold no `:`, user ids may.
    static func parts(ofID id: String) -> (route: String, to: String)? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        return (String(id[..<colon]), String(id[id.index(after: colon)...]))
    }

    func find(route: String, to: String) async throws -> ShareRecord? {
        try await collection.findOne(["_id": .string(Self.id(route: route, to: to))]).flatMap(Self.record)
    }

    /// Shares `route` with `to`; if it already is, returns the existing share (first `shared_at`).
    func share(route: String, owner: String, to: String) async throws -> (share: ShareRecord, created: Bool) {
        let share = ShareRecord(route: route, owner: owner, to: to, sharedAt: clock.now)
        do {
            try await collection.insertOne([
                "_id": .string(Self.id(route: route, to: to)), "route": .string(route), "owner": .string(owner),
                "to": .string(to), "shared_at": .date(share.sharedAt),
            ])
            return (share, true)
        } catch MongoError.duplicateKey {
            guard let existing = try await find(route: route, to: to) else {
                throw MongoError.duplicateKey(message: "")
            }
            return (existing, false)
        }
    }

    /// Revokes; whether there was a share.
    func revoke(route: String, to: String) async throws -> Bool {
        try await collection.deleteOne(["_id": .string(Self.id(route: route, to: to))]) == 1
    }

    /// The recipients of `route`, newest first.
    func shares(of route: String) async throws -> [ShareRecord] {
        try await collection.find(["route": .string(route)], sort: ["shared_at": -1, "_id": 1]).compactMap(Self.record)
    }

    /// The shares to `user`, newest first (ties by id), after the keyset position `after`.
    func inbox(of user: String, after: (Date, String)?, limit: Int) async throws -> [ShareRecord] {
        try await collection.find(
            Self.inboxFilter(of: user, after: after), sort: ["shared_at": -1, "_id": 1], limit: limit
        )
        .compactMap(Self.record)
    }

    /// The shares to `user` after the keyset position `after` (see `inbox`).
    static func inboxFilter(of user: String, after: (Date, String)?) -> BSONDocument {
        var filter: BSONDocument = ["to": .string(user)]
        if let (date, id) = after {
            filter["$or"] = [
                ["shared_at": ["$lt": .date(date)]],
                ["shared_at": .date(date), "_id": ["$gt": .string(id)]],
            ]
        }
        return filter
    }

    /// The recipients of each of `routes` (one query), newest share first.
    func recipients(of routes: [String]) async throws -> [String: [String]] {
        guard !routes.isEmpty else { return [:] }
        let found = try await collection.find(
            ["route": ["$in": .array(routes.map { .string($0) })]], sort: ["shared_at": -1, "_id": 1])
        return Dictionary(grouping: found.compactMap(Self.record), by: \.route).mapValues { $0.map(\.to) }
    }

    /// Which of `routes` are shared with `user` (by `_id`).
    func sharedWith(_ user: String, among routes: [String]) async throws -> Set<String> {
        guard !routes.isEmpty else { return [] }
        let ids = routes.map { BSONValue.string(Self.id(route: $0, to: user)) }
        let found = try await collection.find(ids: ids, projection: ["route": 1])
        return Set(found.compactMap { $0.string("route") })
    }

    func count(to user: String) async throws -> Int {
        try await collection.count(["to": .string(user)])
    }

    /// The ids of the routes shared with `user`.
    func routeIDs(sharedWith user: String) async throws -> [String] {
        try await collection.find(["to": .string(user)], projection: ["route": 1]).compactMap { $0.string("route") }
    }

    func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    static func record(_ document: BSONDocument) -> ShareRecord? {
        guard let route = document.string("route"), let owner = document.string("owner"),
            let to = document.string("to"), let sharedAt = document.date("shared_at")
        else { return nil }
        return ShareRecord(route: route, owner: owner, to: to, sharedAt: sharedAt)
    }
}
