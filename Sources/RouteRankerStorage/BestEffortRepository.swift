import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Stored best efforts in `best_efforts`, one document per finished route, activity and distance
/// (`_id` `"<route>:<activity>:<distance>"`). A finished route's kept points never change, so an
/// effort's content follows from its id and storing it twice is harmless; a change of activity
/// gives new ids and removes the old ones. Records, progressions, `pr_rank` and rankings are
/// indexed reads by owner, activity and distance, never a scan of points.
package struct BestEffortRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("best_efforts")
    }

    package static let indexes = [
        // Records, pr_rank and rankings: one person's efforts of one distance, fastest first.
        MongoIndex(
            keys: ["owner": 1, "activity": 1, "distance": 1, "elapsed_ms": 1, "start_ms": 1, "route": 1],
            name: "owner_activity_distance_elapsed"),
        // Progressions: one person's efforts of one distance in time order.
        MongoIndex(
            keys: ["owner": 1, "activity": 1, "distance": 1, "start_ms": 1], name: "owner_activity_distance_start"),
        MongoIndex(keys: ["owner": 1, "route": 1], name: "owner_route"),
    ]

    /// Makes `efforts` the best efforts of `route`: stores them, then removes the route's others
    /// (another activity's, or all of them when `efforts` is empty).
    package func replace(route: RouteRecord, with efforts: [BestEffortRecord]) async throws {
        let documents = efforts.map(Self.document)
        if !documents.isEmpty {
            do {
                try await collection.insertMany(documents, ordered: false)
            } catch MongoError.duplicateKey {
                // Unordered: every other document was inserted; the duplicates are the same effort.
            }
        }
        _ = try await collection.deleteMany([
            "owner": .string(route.owner), "route": .string(route.id),
            "_id": ["$nin": .array(documents.compactMap { $0["_id"] })],
        ])
    }

    /// Removes every best effort of a route (deleted, or no longer finished).
    package func deleteAll(route: String, owner: String) async throws {
        _ = try await collection.deleteMany(["owner": .string(owner), "route": .string(route)])
    }

    /// Removes every best effort of a person (leaving).
    package func deleteAll(owner: String) async throws {
        _ = try await collection.deleteMany(["owner": .string(owner)])
    }

    /// The best efforts of a route, shortest distance first.
    package func efforts(route: String, owner: String) async throws -> [BestEffortRecord] {
        try await collection.find(["owner": .string(owner), "route": .string(route)])
            .map(Self.record).sorted { $0.distanceM < $1.distanceM }
    }

    /// The `limit` fastest efforts of `owner` at `distance` and `activity` (ties: the earlier
    /// start, then the route id).
    package func fastest(owner: String, activity: Activity, distance: String, limit: Int) async throws
        -> [BestEffortRecord]
    {
        try await collection.find(
            Self.filter(owners: [owner], activity: activity, distance: distance),
            sort: ["elapsed_ms": 1, "start_ms": 1, "route": 1], limit: limit
        ).map(Self.record)
    }

    /// Every effort of `owner` at `distance` and `activity`, in start order.
    package func history(owner: String, activity: Activity, distance: String) async throws -> [BestEffortRecord] {
        try await collection.find(
            Self.filter(owners: [owner], activity: activity, distance: distance), sort: ["start_ms": 1, "route": 1]
        ).map(Self.record)
    }

    /// The efforts of `owners` at `distance` and `activity`, fastest first: the candidates of a
    /// ranking (the caller keeps those of routes the reader may see).
    package func efforts(owners: [String], activity: Activity, distance: String) async throws -> [BestEffortRecord] {
        guard !owners.isEmpty else { return [] }
        return try await collection.find(
            Self.filter(owners: owners, activity: activity, distance: distance),
            sort: ["elapsed_ms": 1, "start_ms": 1, "route": 1]
        ).map(Self.record)
    }

    private static func filter(owners: [String], activity: Activity, distance: String) -> BSONDocument {
        [
            "owner": owners.count == 1 ? .string(owners[0]) : ["$in": .array(owners.map { .string($0) })],
            "activity": .string(activity.rawValue), "distance": .string(distance),
        ]
    }

    private static func document(_ effort: BestEffortRecord) -> BSONDocument {
        [
            "_id": .string("\(effort.route):\(effort.activity.rawValue):\(effort.distance)"),
            "route": .string(effort.route), "owner": .string(effort.owner),
            "activity": .string(effort.activity.rawValue), "distance": .string(effort.distance),
            "distance_m": .double(effort.distanceM), "elapsed_ms": .int64(effort.elapsedMS),
            "start_ms": .int64(effort.startMS), "end_ms": .int64(effort.endMS), "version": .int(effort.version),
        ]
    }

    private static func record(_ document: BSONDocument) throws -> BestEffortRecord {
        guard let route = document.string("route"), let owner = document.string("owner"),
            let activity = document.string("activity").flatMap(Activity.init(rawValue:)),
            let distance = document.string("distance"), let distanceM = document.double("distance_m"),
            let elapsed = document.int("elapsed_ms"), let start = document.int("start_ms"),
            let end = document.int("end_ms")
        else { throw StorageError.malformed("best effort", document.string("_id")) }
        return BestEffortRecord(
            route: route, owner: owner, activity: activity, distance: distance, distanceM: distanceM,
            elapsedMS: Int64(elapsed), startMS: Int64(start), endMS: Int64(end), version: document.int("version") ?? 0)
    }
}
