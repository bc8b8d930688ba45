import Foundation
import Mongo
import RouteRankerCore

/// Where routes start, in `route_starts`: `_id` the route id, its owner, and its first kept point as
/// GeoJSON under a `2dsphere` index, for "routes near me" and similar routes.
///
/// Kept out of the route document, which every append rewrites: SecantusDB rewrites every index
/// entry of a document it updates, changed or not, and the `2dsphere` entry alone cost it about
/// 1 ms of CPU per append (MongoDB skips unchanged entries; a start here costs it nothing either).
/// A route's first kept point never changes once it has one, so its start is written once, by
/// `RouteRepository.commit`, before the commit that gives the route its first point. An entry
/// may therefore name a route not committed yet, or deleted since: it is a candidate only, and
/// readers confirm it with the route document.
package struct RouteStartRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("route_starts")
    }

    package static let indexes = [MongoIndex(keys: ["start": "2dsphere"], name: "start_2dsphere")]

    /// Records that `route` (owned by `owner`) starts at `start`; writing it again is harmless. The
    /// filter names the owner too, which never changes: on a cluster `route_starts` is sharded on it
    /// (deploy/shard-plan.json), and an upsert must carry its shard key. The upsert shares its
    /// command with those of concurrent route creations; `linger`: how long it waits for some when
    /// it finds none (`MongoCollection.upsertOneCoalesced`).
    package func record(route: String, owner: String, start: Coordinate, linger: Duration = .zero) async throws {
        try await collection.upsertOneCoalesced(
            filter: ["_id": .string(route), "owner": .string(owner)],
            update: ["$set": ["owner": .string(owner), "start": Self.point(start)]], linger: linger)
    }

    /// The ids of `owner`'s routes whose recorded start may lie within `radiusM` of `centre`. The
    /// index measures on a sphere, so the radius is padded (1 % and 10 m); callers decide with
    /// exact WGS84 geodesic distances.
    package func routes(near centre: Coordinate, radiusM: Double, owner: String) async throws -> [String] {
        let meanEarthRadiusM = 6_371_008.8
        let padded = min((radiusM * 1.01 + 10) / meanEarthRadiusM, Double.pi)
        let filter: BSONDocument = [
            "owner": .string(owner),
            "start": ["$geoWithin": ["$centerSphere": [[.double(centre.lon), .double(centre.lat)], .double(padded)]]],
        ]
        return try await collection.find(filter, projection: ["_id": 1]).compactMap { $0.string("_id") }
    }

    package func delete(route: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(route)])
    }

    /// Once per database: earlier versions kept the start in the route document, under an index of
    /// `routes`. Records those starts here, then drops that index (the field itself goes with each
    /// route's next commit).
    package func moveStartsOutOfRoutes(_ routes: MongoCollection, now: Date) async throws {
        let migrations = collection.database.collection("migrations")
        guard try await migrations.findOne(["_id": "route_starts"]) == nil else { return }
        let old = try await routes.find(
            ["start": ["$exists": true]], projection: ["owner": 1, "start": 1])
        for document in old {
            guard let id = document.string("_id"), let owner = document.string("owner"),
                let coordinates = document.document("start")?.array("coordinates"), coordinates.count == 2,
                let lon = coordinates[0].doubleValue, let lat = coordinates[1].doubleValue
            else { continue }
            try await record(route: id, owner: owner, start: Coordinate(lat: lat, lon: lon))
        }
        try await routes.dropIndex(named: "start_2dsphere")
        do {
            try await migrations.insertOne(["_id": "route_starts", "done_at": .date(now)])
        } catch MongoError.duplicateKey {}
    }

    private static func point(_ coordinate: Coordinate) -> BSONValue {
        ["type": "Point", "coordinates": [.double(coordinate.lon), .double(coordinate.lat)]]
    }
}
