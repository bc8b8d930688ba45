import Mongo
import RouteRankerCore
import RouteRankerModels

/// Routes resampled every 10 m (for "same route" matching), stored in `paths` once per route and
/// reader lens (`_id` `"<route>:<lens>"`), keyed by the route's point count: points only ever
/// get added, so an unchanged count means an unchanged path, and a query never re-reads the points
/// of a route it has seen before.
package struct PathRepository: Sendable {
    /// Paths with more samples than this (over 2,500 km) are computed per query, not stored: a
    /// document must stay well under MongoDB's 16 MiB.
    package static let maxStoredSamples = 250_000

    package let collection: MongoCollection
    package let buckets: PointBuckets

    package init(database: MongoDatabase, buckets: PointBuckets) {
        collection = database.collection("paths")
        self.buckets = buckets
    }

    /// The path of `route` as `lens` sees it.
    package func path(of route: StoredRoute, lens: PrivacyLens) async throws -> ResampledPath {
        try await paths(of: [(route, lens)])[route.id] ?? ResampledPath()
    }

    /// The paths of several routes, by route id: the stored ones in one query, the missing or
    /// stale ones computed from their points and stored.
    package func paths(of routes: [(route: StoredRoute, lens: PrivacyLens)]) async throws -> [String: ResampledPath] {
        guard !routes.isEmpty else { return [:] }
        let ids = routes.map { BSONValue.string(Self.id($0.route, $0.lens)) }
        let stored = try await collection.find(ids: ids)
        var byID: [String: BSONDocument] = [:]
        for document in stored { if let id = document.string("_id") { byID[id] = document } }
        var result: [String: ResampledPath] = [:]
        for (route, lens) in routes {
            if let document = byID[Self.id(route, lens)], document.string("key") == Self.key(route),
                let lat = document.binary("lat").flatMap(PackedDoubles.doubles),
                let lon = document.binary("lon").flatMap(PackedDoubles.doubles),
                let path = ResampledPath(lat: lat, lon: lon)
            {
                result[route.id] = path
            } else {
                result[route.id] = try await compute(route, lens: lens)
            }
        }
        return result
    }

    private func compute(_ route: StoredRoute, lens: PrivacyLens) async throws -> ResampledPath {
        var resampler = PathResampler()
        for try await chunk in buckets.read(route) {
            resampler.add(contentsOf: lens.zones.isEmpty ? chunk : chunk.filter { !lens.hides($0) })
        }
        let path = resampler.path
        if path.count <= Self.maxStoredSamples {
            try await collection.updateOne(
                filter: ["_id": .string(Self.id(route, lens))],
                update: [
                    "$set": [
                        "route": .string(route.id), "key": .string(Self.key(route)),
                        "lat": .binary(subtype: 0, PackedDoubles.bytes(path.lat)),
                        "lon": .binary(subtype: 0, PackedDoubles.bytes(path.lon)),
                    ]
                ], upsert: true)
        }
        return path
    }

    // Coordinates are stored packed (`PackedDoubles`): a path is read whole and never queried inside.

    private static func id(_ route: StoredRoute, _ lens: PrivacyLens) -> String { "\(route.id):\(lens.tag)" }

    /// Points are only ever added, so the count identifies the points a path was made from.
    private static func key(_ route: StoredRoute) -> String { "n\(route.pointCount)" }

    package func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    package static let indexes = [MongoIndex(keys: ["route": 1], name: "route")]
}
