import Foundation
import Mongo
import RouteRankerCore

/// Routes in `routes` (one document each: summary and stats state); their points are in
/// `PointBuckets`.
struct RouteRepository: Sendable {
    let collection: MongoCollection

    init(database: MongoDatabase) {
        collection = database.collection("routes")
    }

    static let indexes = [
        MongoIndex(keys: ["owner": 1, "started_at": 1], name: "owner_started_at"),
        MongoIndex(keys: ["start": "2dsphere"], name: "start_2dsphere"),
    ]

    /// The route `id`, whoever owns it. Callers decide visibility (see `Visibility`).
    func find(id: String) async throws -> RouteRecord? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id)]).map(RouteRecord.init(document:))
    }

    /// Replaces the stored route if it still has `expectedVersion`; `409` otherwise.
    func replace(_ route: RouteRecord, expectedVersion: Int) async throws {
        let result = try await collection.updateOne(
            filter: ["_id": .string(route.id), "version": .int(expectedVersion)],
            update: ["$set": .document(try route.document.removing("_id"))])
        guard result.matchedCount == 1 else { throw APIError.conflict(RouteIngest.concurrentMessage) }
    }

    /// Removes the route document; its points, shares and memberships are removed by the caller.
    func delete(id: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(id)])
    }

    /// Routes matching `filter`, in `sort` order, at most `limit`.
    func find(_ filter: BSONDocument, sort: BSONDocument, limit: Int) async throws -> [RouteRecord] {
        try await collection.find(filter, sort: sort, limit: limit).map(RouteRecord.init(document:))
    }

    func count(_ filter: BSONDocument) async throws -> Int {
        try await collection.count(filter)
    }
}
