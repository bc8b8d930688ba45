import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Routes in `routes` (one document each: summary, stats state and point layout); their full
/// buckets are in `PointBuckets`.
package struct RouteRepository: Sendable {
    package let collection: MongoCollection
    /// Where the routes start (for `startingNear`), written by `commit`.
    package let starts: RouteStartRepository

    package init(database: MongoDatabase) {
        collection = database.collection("routes")
        starts = RouteStartRepository(database: database)
    }

    package static let indexes = [
        MongoIndex(keys: ["owner": 1, "started_at": 1], name: "owner_started_at"),
        // Duplicates of an import (`duplicate(of:owner:)`); only finished routes have the field.
        MongoIndex(keys: ["owner": 1, "fingerprint": 1], name: "owner_fingerprint", sparse: true),
    ]

    /// The route `id`, whoever owns it. Callers decide visibility (see `Visibility`).
    package func find(id: String) async throws -> StoredRoute? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id)]).map(StoredRoute.init(document:))
    }

    /// Whether the route `id` exists (an `_id` lookup that reads nothing else).
    package func exists(id: String) async throws -> Bool {
        guard RouteID.isPlausible(id) else { return false }
        return try await collection.findOne(["_id": .string(id)], projection: ["_id": 1]) != nil
    }

    /// What a list reads of a route: everything but its annotations (up to 1,000 of 1,000
    /// characters, a megabyte a route), which only the route's own read answers. Such a record has
    /// `annotationsLoaded` false and cannot be committed.
    static let withoutAnnotations: BSONDocument = ["annotations": 0]

    /// The routes among `ids` that exist, by id (a query per 100 ids); without their annotations
    /// when `annotations` is false (lists).
    package func find(ids: [String], annotations: Bool = true) async throws -> [String: StoredRoute] {
        let plausible = Set(ids.filter(RouteID.isPlausible))
        guard !plausible.isEmpty else { return [:] }
        let found = try await collection.find(
            ids: plausible.map { .string($0) }, projection: annotations ? nil : Self.withoutAnnotations
        )
        .map(StoredRoute.init(document:))
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The readers (`RouteRecord.readers`) of the routes among `ids` that exist, by id (a query per
    /// 100 ids, nothing else read).
    package func readers(ids: [String]) async throws -> [String: [String]] {
        let plausible = Set(ids.filter(RouteID.isPlausible))
        guard !plausible.isEmpty else { return [:] }
        let found = try await collection.find(ids: plausible.map { .string($0) }, projection: ["readers": 1])
        return Dictionary(
            found.compactMap { document in
                document.string("_id").map { ($0, (document.array("readers") ?? []).compactMap(\.stringValue)) }
            }, uniquingKeysWith: { first, _ in first })
    }

    /// The figures of the routes among `ids` that exist, by id (a query per 100 ids, projected: no stats
    /// state is decoded).
    package func figures(ids: [String]) async throws -> [String: RouteFigures] {
        let plausible = Set(ids.filter(RouteID.isPlausible))
        guard !plausible.isEmpty else { return [:] }
        let found = try await collection.find(
            ids: plausible.map { .string($0) }, projection: ["owner": 1, "name": 1, "metrics": 1, "readers": 1])
        return Dictionary(
            found.compactMap { document -> (String, RouteFigures)? in
                guard let id = document.string("_id"), let owner = document.string("owner"),
                    let name = document.string("name")
                else { return nil }
                let metrics = document.document("metrics") ?? [:]
                var values: [GroupMetric: Double] = [:]
                for metric in GroupMetric.allCases { values[metric] = metrics.double(metric.rawValue) }
                let readers = (document.array("readers") ?? []).compactMap(\.stringValue)
                return (id, RouteFigures(id: id, owner: owner, name: name, values: values, readers: readers))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Stores `route` as the version after `base`, in one single-document journaled write: the
    /// commit point of every change of a route. A new route (`base` 0) is inserted; an existing
    /// one is updated only while its stored version is still `base`, else `VersionConflict`.
    ///
    /// `stored` is the route as read at `base`: then only the fields that differ from it are
    /// written. An append changes its figures and points but not the owner, name or start, so its
    /// oplog entry (which every server's change stream reads) holds only those, and MongoDB leaves
    /// the index entries of the unchanged fields alone.
    ///
    /// Only a new route's document gets `readers` (a tracker's route is shared as it starts): a
    /// later commit must not write back the copy it read, which a share or revocation since would
    /// make stale.
    ///
    /// The update goes to the database with the commits that concurrent requests make meanwhile, in
    /// one command (`MongoCollection.updateOneCoalesced`): a recording route's append is little
    /// more than this update, and on SecantusDB one command of many statements costs far less than
    /// as many commands. `bucket`, the last full bucket the commit names if it is not stored yet,
    /// is stored first, in the same queue (`updateOneCoalesced(filter:update:afterStoring:in:)`):
    /// an append of a bucket or more then waits once for its writes, not twice, and shares both
    /// commands with concurrent commits. Each commit also adds an id of its own to `commits` (the
    /// route's last `commitsKept`): when some commits of a batch matched and some did not, the
    /// reply does not say which, and the stored ids do. A first commit (`base` 0) of a route that
    /// exists already throws `RouteAlreadyExists`; its start and its insert share their commands
    /// too. `linger`: how long each write that finds no concurrent one to share its command with
    /// waits for some (zero: it sends at once).
    package func commit(
        _ route: StoredRoute, over base: Int, stored: StoredRoute? = nil, bucket: PointBuckets.Pending? = nil,
        linger: Duration = .zero
    ) async throws {
        var document = try route.document
        // The start first, like the points: invisible until the route document names it.
        if let first = route.accumulator.first, stored?.accumulator.first?.coordinate != first.coordinate {
            try await starts.record(route: route.id, owner: route.owner, start: first.coordinate, linger: linger)
        }
        if base == 0 {
            try await bucket?.write()
            if !route.readers.isEmpty { document["readers"] = .array(route.readers.map { .string($0) }) }
            do {
                // Shared with the creations of concurrent requests: phones that start recording
                // together (a club's start) each create a route.
                try await collection.insertOneCoalesced(document, linger: linger)
            } catch MongoError.duplicateKey {
                throw RouteAlreadyExists()
            }
            return
        }
        var update: BSONDocument
        if let stored {
            let before = try stored.document
            var set = BSONDocument()
            var unset = BSONDocument()
            // Both documents' keys are distinct, so the fields are appended without a lookup.
            for (key, value) in document where key != "_id" && before[key] != value { set.append(key, value) }
            for (key, _) in before where !document.contains(key) { unset.append(key, .string("")) }
            update = ["$set": .document(set)]
            if !unset.isEmpty { update["$unset"] = .document(unset) }
        } else {
            update = ["$set": .document(document.removing("_id"))]
        }
        let commit = NewID.make()
        update["$push"] = ["commits": ["$each": [.string(commit)], "$slice": .int(-Self.commitsKept)]]
        let filter: BSONDocument = ["_id": .string(route.id), "version": .int(base)]
        let matched =
            if let bucket {
                try await collection.updateOneCoalesced(
                    filter: filter, update: update, afterStoring: [bucket.document], in: bucket.buckets.collection,
                    isStored: StorageBatching.bucketAlreadyStored, linger: linger)
            } else {
                try await collection.updateOneCoalesced(filter: filter, update: update, linger: linger)
            }
        switch matched {
        case true: return
        case false: throw VersionConflict()
        case nil:
            // A batch in which some commits matched and some did not (a writer in another process
            // got there first, or the route was deleted): this one landed if its id is among the
            // route's last commits, read from the primary like every read of this server (the
            // client's read preference) after the command was acknowledged.
            let landed = try await collection.findOne(
                ["_id": .string(route.id), "commits": .string(commit)], projection: ["_id": 1])
            guard landed != nil else { throw VersionConflict() }
        }
    }

    /// How many commit ids a route keeps (`commit(_:over:stored:)`). The read-back of an ambiguous
    /// commit comes right after its command; for its id to be gone by then, more than this many
    /// later commits of the route, each made after reading the one before, would have to land.
    package static let commitsKept = 8

    /// Removes the route document, then its start; its points, shares and memberships are removed
    /// by the caller.
    package func delete(id: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(id)])
        try await starts.delete(route: id)
    }

    /// The training log's figures of `owner`'s finished routes that started in `[from, to)`
    /// (either bound optional), of `activity` when given: by the `owner_started_at` index,
    /// projected to the few figures the log sums. Routes stored before the projected elevation
    /// gain existed are read whole, once each.
    package func logFigures(owner: String, from: Date?, to: Date?, activity: Activity?) async throws -> [LogFigures] {
        var started: BSONDocument = ["$ne": .null]
        if let from { started["$gte"] = .date(from) }
        if let to { started["$lt"] = .date(to) }
        var filter: BSONDocument = ["owner": .string(owner), "started_at": .document(started), "state": "finished"]
        if let activity { filter["activity"] = .string(activity.rawValue) }
        let found = try await collection.find(
            filter, sort: ["started_at": 1, "_id": 1], projection: ["started_at": 1, "activity": 1, "metrics": 1])
        var figures: [LogFigures] = []
        var old: [String] = []
        for document in found {
            guard let id = document.string("_id"), let metrics = document.document("metrics"),
                let startedAt = document.date("started_at"), let distance = metrics.double("distance_m"),
                let moving = metrics.double("moving_time_s")
            else { continue }
            guard metrics.contains("elevation_gain_m") else {
                old.append(id)
                continue
            }
            figures.append(
                LogFigures(
                    startedAt: startedAt, distanceM: distance, movingTimeS: moving,
                    elevationGainM: metrics.double("elevation_gain_m")))
        }
        for route in try await find(ids: old).values {
            guard let startedAt = route.startedAt else { continue }
            let stats = route.stats
            figures.append(
                LogFigures(
                    startedAt: startedAt, distanceM: stats.distanceM, movingTimeS: stats.movingTimeS,
                    elevationGainM: stats.elevationGainM))
        }
        return figures
    }

    /// Up to `limit` finished routes after the id `after`, in id order: the walk of a migration
    /// over every route (an administrative scan, declared in the shard plan).
    package func finished(after: String?, limit: Int) async throws -> [StoredRoute] {
        var filter: BSONDocument = ["state": "finished"]
        if let after { filter["_id"] = ["$gt": .string(after)] }
        return try await collection.find(filter, sort: ["_id": 1], limit: limit).map(StoredRoute.init(document:))
    }

    /// Every route of `owner`, as stored (for removing them all: leaving).
    package func all(owner: String) async throws -> [StoredRoute] {
        try await collection.find(["owner": .string(owner)], sort: ["_id": 1]).map(StoredRoute.init(document:))
    }

    /// The id of `owner`'s finished route whose kept points have `fingerprint` (see
    /// `RouteRecord.fingerprint`), if there is one.
    package func duplicate(of fingerprint: String, owner: String) async throws -> String? {
        try await collection.findOne(
            ["owner": .string(owner), "fingerprint": .string(fingerprint)], projection: ["_id": 1]
        )?.string("_id")
    }

    /// Up to `limit` of `owner`'s routes after the id `afterID`, in id order (the export's pages).
    package func page(owner: String, afterID: String?, limit: Int) async throws -> [StoredRoute] {
        var filter: BSONDocument = ["owner": .string(owner)]
        if let afterID { filter["_id"] = ["$gt": .string(afterID)] }
        return try await collection.find(filter, sort: ["_id": 1], limit: limit).map(StoredRoute.init(document:))
    }

    /// How many routes `owner` has.
    package func count(owner: String) async throws -> Int {
        try await collection.count(["owner": .string(owner)])
    }

    /// One page of `owner`'s routes in `order` after `after`: those with a value for the sort key
    /// first, then those without (see `SortKeyset`); at most `limit`.
    package func page(owner: String, order: RouteOrder, after: [String]?, limit: Int) async throws -> [StoredRoute] {
        let keyset = try SortKeyset(field: order.field, descending: order.descending, after: after)
        let mine: BSONDocument = ["owner": .string(owner)]
        var found = try await collection.find(
            keyset.valuedFilter(mine), sort: [order.field: order.descending ? -1 : 1, "_id": 1], limit: limit,
            projection: Self.withoutAnnotations
        )
        .map(StoredRoute.init(document:))
        if found.count < limit {
            found += try await collection.find(
                keyset.nullFilter(mine), sort: ["_id": 1], limit: limit - found.count,
                projection: Self.withoutAnnotations
            )
            .map(StoredRoute.init(document:))
        }
        return found
    }

    /// `owner`'s routes whose start may lie within `radiusM` of `centre`, by id: candidates from
    /// `RouteStartRepository`, confirmed by the route documents (committed, with a start, `owner`'s);
    /// callers decide with exact WGS84 geodesic distances from `stats.start`.
    package func startingNear(_ centre: Coordinate, radiusM: Double, owner: String) async throws -> [StoredRoute] {
        let candidates = try await starts.routes(near: centre, radiusM: radiusM, owner: owner)
        guard !candidates.isEmpty else { return [] }
        return try await find(ids: candidates, annotations: false).values
            .filter { $0.owner == owner && $0.accumulator.first != nil }
            .sorted { $0.id < $1.id }
    }

    /// The cached visible extent stored under `key`, if it is current.
    package func cachedExtent(route: String, key: String) async throws -> StoredExtent? {
        guard let document = try await collection.findOne(["_id": .string(route)], projection: ["visible": 1]),
            let cache = document.document("visible"), cache.string("key") == key, let json = cache.string("extent")
        else { return nil }
        return try? JSONDecoder().decode(StoredExtent.self, from: Data(json.utf8))
    }

    /// Caches a visible extent, unless the route changed meanwhile (the cache is not a change of
    /// the route: its version stays).
    package func cacheExtent(_ extent: StoredExtent, route: String, key: String, version: Int) async throws {
        let json = String(decoding: try JSONEncoder().encode(extent), as: UTF8.self)
        try await collection.updateOne(
            filter: ["_id": .string(route), "version": .int(version)],
            update: ["$set": ["visible": ["key": .string(key), "extent": .string(json)]]])
    }
}

/// What group statistics need of a route: its name, owner and stored figures.
package struct RouteFigures: Sendable, RouteReaders {
    package var id: String
    package var owner: String
    package var name: String
    /// The figures by metric; absent when undefined (e.g. the pace of a route without distance).
    package var values: [GroupMetric: Double]
    /// As `RouteRecord.readers`.
    package var readers: [String]

    package init(id: String, owner: String, name: String, values: [GroupMetric: Double], readers: [String]) {
        self.id = id
        self.owner = owner
        self.name = name
        self.values = values
        self.readers = readers
    }

    package func value(_ metric: GroupMetric) -> Double? { values[metric] }
}

/// A sort order of "my routes": the sort key as the API names it, the stored field it reads, and
/// the direction.
package struct RouteOrder: Sendable {
    /// The API's sort keys and the stored field each one reads.
    private static let fields: [String: String] = [
        "started_at": "started_at", "name": "name", "distance_m": "metrics.distance_m",
        "duration_s": "metrics.duration_s", "avg_pace_s_per_km": "metrics.avg_pace_s_per_km",
    ]
    package static let keys = ["started_at", "name", "distance_m", "duration_s", "avg_pace_s_per_km"]

    package var key: String
    package var field: String
    package var descending: Bool

    /// The order for an API sort key, or `nil` if there is no such key.
    package init?(key: String, descending: Bool) {
        guard let field = Self.fields[key] else { return nil }
        self.key = key
        self.field = field
        self.descending = descending
    }
}

/// What the training log sums of one finished route.
package struct LogFigures: Sendable {
    package var startedAt: Date
    package var distanceM: Double
    package var movingTimeS: Double
    package var elevationGainM: Double?
}
