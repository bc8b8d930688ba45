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

    /// The routes among `ids` that exist, by id (one query).
    func find(ids: [String]) async throws -> [String: RouteRecord] {
        let plausible = Set(ids.filter(RouteID.isPlausible))
        guard !plausible.isEmpty else { return [:] }
        let found = try await collection.find(["_id": ["$in": .array(plausible.map { .string($0) })]])
            .map(RouteRecord.init(document:))
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What group statistics need of a route: its name, owner and the figures stored in `metrics`,
    /// read without decoding any stats state.
    struct Figures: Sendable {
        var id: String
        var owner: String
        var name: String
        /// `metrics` as stored: `distance_m`, `duration_s`, `moving_time_s`, `avg_speed_mps`,
        /// `avg_pace_s_per_km` (absent or null when undefined).
        var metrics: BSONDocument

        func value(_ field: String) -> Double? { metrics.double(field) }
    }

    /// The figures of the routes among `ids` that exist, by id (one query, projected).
    func figures(ids: [String]) async throws -> [String: Figures] {
        let plausible = Set(ids.filter(RouteID.isPlausible))
        guard !plausible.isEmpty else { return [:] }
        let found = try await collection.find(
            ["_id": ["$in": .array(plausible.map { .string($0) })]],
            projection: ["owner": 1, "name": 1, "metrics": 1])
        return Dictionary(
            found.compactMap { document -> (String, Figures)? in
                guard let id = document.string("_id"), let owner = document.string("owner"),
                    let name = document.string("name")
                else { return nil }
                return (id, Figures(id: id, owner: owner, name: name, metrics: document.document("metrics") ?? [:]))
            }, uniquingKeysWith: { first, _ in first })
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

    /// The cached visible extent stored under `key`, if it is current.
    func cachedExtent(route: String, key: String) async throws -> StoredExtent? {
        guard let document = try await collection.findOne(["_id": .string(route)], projection: ["visible": 1]),
            let cache = document.document("visible"), cache.string("key") == key, let json = cache.string("extent")
        else { return nil }
        return try? JSONDecoder().decode(StoredExtent.self, from: Data(json.utf8))
    }

    /// Caches a visible extent, unless the route changed meanwhile (the cache is not a change of
    /// the route: its version stays).
    func cacheExtent(_ extent: StoredExtent, route: String, key: String, version: Int) async throws {
        let json = String(decoding: try JSONEncoder().encode(extent), as: UTF8.self)
        try await collection.updateOne(
            filter: ["_id": .string(route), "version": .int(version)],
            update: ["$set": ["visible": ["key": .string(key), "extent": .string(json)]]])
    }

    func count(_ filter: BSONDocument) async throws -> Int {
        try await collection.count(filter)
    }
}
