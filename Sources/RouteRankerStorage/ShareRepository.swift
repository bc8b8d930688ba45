import Foundation
import Mongo
import RouteRankerModels

/// Shares: who may read a route is the route document's `readers` (`RouteReaders.isReadable(by:)`:
/// the visibility check reads nothing but the route); `shares` (`_id` derived from (route,
/// recipient), so sharing twice cannot create two) indexes them by recipient with the time of
/// sharing, for the inbox and the other lists.
///
/// The two are written in an order that keeps every share in `shares` among the route's readers,
/// whatever fails half-way: sharing adds the reader first, revoking removes the share first. A
/// request cut between the two writes got no `2xx`, and its retry completes it.
package struct ShareRepository: Sendable {
    package let collection: MongoCollection
    package let routes: MongoCollection
    package let clock: WallClock

    package init(database: MongoDatabase, clock: WallClock) {
        collection = database.collection("shares")
        routes = database.collection("routes")
        self.clock = clock
    }

    package static let indexes = [
        MongoIndex(keys: ["to": 1, "shared_at": -1], name: "to_shared_at"),
        MongoIndex(keys: ["route": 1, "to": 1], name: "route_to", unique: true),
    ]

    package static func id(route: String, to: String) -> String { "\(route):\(to)" }

    /// The (route, recipient) a share `_id` names; route ids hold no `:`, user ids may.
    package static func parts(ofID id: String) -> (route: String, to: String)? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        return (String(id[..<colon]), String(id[id.index(after: colon)...]))
    }

    package func find(route: String, to: String) async throws -> ShareRecord? {
        try await collection.findOne(["_id": .string(Self.id(route: route, to: to))]).flatMap(Self.record)
    }

    /// Shares `route` with `to`; if it already is, returns the existing share (first `shared_at`).
    package func share(route: String, owner: String, to: String) async throws -> (share: ShareRecord, created: Bool) {
        // `$addToSet` appends, so `readers` stays in the order of sharing.
        _ = try await routes.updateOne(
            filter: ["_id": .string(route)], update: ["$addToSet": ["readers": .string(to)]])
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

    /// Revokes; whether there was a share (or a reader left by a revocation cut short).
    package func revoke(route: String, to: String) async throws -> Bool {
        let deleted = try await collection.deleteOne(["_id": .string(Self.id(route: route, to: to))]) == 1
        let pulled = try await routes.updateOne(
            filter: ["_id": .string(route)], update: ["$pull": ["readers": .string(to)]])
        return deleted || pulled.modifiedCount == 1
    }

    /// The recipients of `route`, newest first.
    package func shares(of route: String) async throws -> [ShareRecord] {
        try await collection.find(["route": .string(route)], sort: ["shared_at": -1, "_id": 1]).compactMap(Self.record)
    }

    /// The shares to `user` after the keyset position `after` in the inbox's order, newest first
    /// (ties by `_id`; `RequestReads.inboxPipeline`).
    package static func inboxFilter(of user: String, after: (Date, String)?) -> BSONDocument {
        var filter: BSONDocument = ["to": .string(user)]
        if let (date, id) = after {
            filter["$or"] = [
                ["shared_at": ["$lt": .date(date)]],
                ["shared_at": .date(date), "_id": ["$gt": .string(id)]],
            ]
        }
        return filter
    }

    /// The ids of the routes shared with `user`.
    package func routeIDs(sharedWith user: String) async throws -> [String] {
        try await collection.find(["to": .string(user)], projection: ["route": 1]).compactMap { $0.string("route") }
    }

    /// Gives the routes shared before route documents held their `readers` the readers their
    /// shares name, in the order they were shared; once per database (marked in `migrations`).
    /// Idempotent, so a start cut short simply does it again.
    ///
    /// Another server of this version may be serving meanwhile: a revocation it makes between this
    /// pass's reading of the shares and its adding of their readers would be undone, so each route's
    /// shares are read again afterwards and the readers whose share is gone are taken out again.
    package func addMissingReaders() async throws {
        let migrations = collection.database.collection("migrations")
        guard try await migrations.findOne(["_id": "route_readers"]) == nil else { return }
        let all = try await collection.find([:], sort: ["shared_at": 1, "_id": 1]).compactMap(Self.record)
        for (route, shares) in Dictionary(grouping: all, by: \.route) {
            let recipients = shares.map(\.to)
            _ = try await routes.updateOne(
                filter: ["_id": .string(route)],
                update: ["$addToSet": ["readers": ["$each": .array(recipients.map { .string($0) })]]])
            let still = Set(
                try await collection.find(["route": .string(route)], projection: ["to": 1]).compactMap {
                    $0.string("to")
                })
            let revoked = recipients.filter { !still.contains($0) }
            if !revoked.isEmpty {
                _ = try await routes.updateOne(
                    filter: ["_id": .string(route)],
                    update: ["$pull": ["readers": ["$in": .array(revoked.map { .string($0) })]]])
            }
        }
        do {
            try await migrations.insertOne(["_id": "route_readers", "done_at": .date(clock.now)])
        } catch MongoError.duplicateKey {}
    }

    package func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    package static func record(_ document: BSONDocument) -> ShareRecord? {
        guard let route = document.string("route"), let owner = document.string("owner"),
            let to = document.string("to"), let sharedAt = document.date("shared_at")
        else { return nil }
        return ShareRecord(route: route, owner: owner, to: to, sharedAt: sharedAt)
    }
}
