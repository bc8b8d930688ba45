import Mongo
import RouteRankerCore

/// Routes resampled every 10 m (for "same route" matching), stored in `paths` once per route and
/// reader lens (`_id` `"<route>:<lens>"`), keyed by the route's point count: points only ever
/// get added, so an unchanged count means an unchanged path, and a query never re-reads the points
/// of a route it has seen before.
struct PathRepository: Sendable {
    /// Paths with more samples than this (over 2,500 km) are computed per query, not stored: a
    /// document must stay well under MongoDB's 16 MiB.
    static let maxStoredSamples = 250_000

    let collection: MongoCollection
    let buckets: PointBuckets

    init(database: MongoDatabase, buckets: PointBuckets) {
        collection = database.collection("paths")
        self.buckets = buckets
    }

    /// The path of `route` as `lens` sees it.
    func path(of route: RouteRecord, lens: RouteViewer.Lens) async throws -> ResampledPath {
        let id = "\(route.id):\(lens.tag)"
        let key = "n\(route.pointCount)"
        if let stored = try await collection.findOne(["_id": .string(id)]), stored.string("key") == key,
            let lat = stored.array("lat")?.compactMap(\.doubleValue),
            let lon = stored.array("lon")?.compactMap(\.doubleValue),
            let path = ResampledPath(lat: lat, lon: lon)
        {
            return path
        }
        var resampler = PathResampler()
        for try await chunk in buckets.read(route: route.id, count: route.pointCount) {
            resampler.add(contentsOf: lens.zones.isEmpty ? chunk : chunk.filter { !lens.hides($0) })
        }
        let path = resampler.path
        if path.count <= Self.maxStoredSamples {
            try await collection.updateOne(
                filter: ["_id": .string(id)],
                update: [
                    "$set": [
                        "route": .string(route.id), "key": .string(key),
                        "lat": .array(path.lat.map(BSONValue.double)), "lon": .array(path.lon.map(BSONValue.double)),
                    ]
                ], upsert: true)
        }
        return path
    }

    func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    static let indexes = [MongoIndex(keys: ["route": 1], name: "route")]
}
