import Foundation
import Mongo
import RouteRankerCore

/// One request's worth of points going into one route: filtered by the route's accumulator,
/// packed into buckets as they come (full buckets are written at once, so memory stays bounded
/// for a stream of any length), and made visible all together by `commit`.
///
/// Nothing it writes before `commit` is visible (see `PointBuckets`); the commit writes the last,
/// partial bucket and the route document in one transaction, guarded by the route's version.
struct RouteIngest {
    static let maxPoints = 1_000_000

    let buckets: PointBuckets
    let database: MongoDatabase
    /// The route as it was when this request started (for a create, not yet stored).
    let base: RouteRecord
    private(set) var route: RouteRecord
    private(set) var duplicates = 0
    private(set) var dropped = 0
    private(set) var accepted = 0
    /// Set once the kept points would pass `maxPoints`: the rest of the body is still read, so that
    /// a bad point anywhere is a `400`, but nothing more is written.
    private(set) var overLimit = false

    /// The points of the bucket being filled, starting with its committed prefix.
    private var open: [TrackPoint]
    private var seq: Int

    /// Starts an ingest into `route` (`isNew` for a route not stored yet).
    static func start(into route: RouteRecord, buckets: PointBuckets, database: MongoDatabase) async throws
        -> RouteIngest
    {
        let open = try await buckets.openBucket(route: route.id, committed: route.pointCount)
        return RouteIngest(buckets: buckets, database: database, base: route, route: route, open: open)
    }

    private init(
        buckets: PointBuckets, database: MongoDatabase, base: RouteRecord, route: RouteRecord, open: [TrackPoint]
    ) {
        self.buckets = buckets
        self.database = database
        self.base = base
        self.route = route
        self.open = open
        self.seq = route.pointCount / PointBuckets.capacity
        self.open.reserveCapacity(PointBuckets.capacity)
    }

    /// Filters `points` (in the order the filter must see them) and writes every bucket they fill.
    mutating func add(_ points: [TrackPoint]) async throws {
        guard !points.isEmpty else { return }
        let batch = route.accumulator.ingest(points)
        duplicates += batch.duplicates
        dropped += batch.dropped
        accepted += batch.accepted
        if route.accumulator.count > Self.maxPoints { overLimit = true }
        guard !overLimit else { return }
        for point in batch.kept {
            open.append(point)
            if open.count == PointBuckets.capacity {
                try await buckets.write(route: route.id, seq: seq, points: open)
                open.removeAll(keepingCapacity: true)
                seq += 1
            }
        }
    }

    /// Adds annotations sent with the points.
    mutating func annotate(_ annotations: [Annotation]) {
        route.annotations += annotations
    }

    /// Makes everything visible at once: the open bucket and the route document in one
    /// transaction. For a new route the document is inserted; otherwise it is replaced only if its
    /// version is still the one this ingest started from (else `409`: another writer got there first).
    mutating func commit(state: RouteState? = nil) async throws -> RouteRecord {
        guard !overLimit else {
            throw APIError.payloadTooLarge("a route may hold at most \(Self.maxPoints) points")
        }
        if let state { route.state = state }
        route.version = base.version + 1
        let isNew = base.version == 0
        let document = try route.document
        let (bucketFilter, bucketUpdate) = PointBuckets.write(route: route.id, seq: seq, points: open)
        let writeBucket = !open.isEmpty
        let routeID = route.id
        let baseVersion = base.version
        try await database.transaction { transaction in
            if writeBucket {
                try transaction.collection("points").updateOne(
                    filter: bucketFilter, update: bucketUpdate, upsert: true)
            }
            let routes = transaction.collection("routes")
            if isNew {
                try routes.insertOne(document)
            } else {
                let result = try routes.updateOne(
                    filter: ["_id": .string(routeID), "version": .int(baseVersion)],
                    update: ["$set": .document(document.removing("_id"))])
                guard result.matchedCount == 1 else { throw APIError.conflict(RouteIngest.concurrentMessage) }
            }
        }
        return route
    }

    static let concurrentMessage = "the route changed while this request was written; send it again"
}

extension BSONDocument {
    /// This document without `key`.
    func removing(_ key: String) -> BSONDocument {
        BSONDocument(self.filter { $0.key != key }.map { ($0.key, $0.value) })
    }
}
