import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Segments in `segments`: one document each, the points packed (`PackedDoubles`), the start also
/// as a GeoJSON point for the `2dsphere` index that the near search and route matching go through.
package struct SegmentRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("segments")
    }

    package static let indexes = [
        MongoIndex(keys: ["owner": 1, "created_at": -1], name: "owner_created_at"),
        MongoIndex(keys: ["start": "2dsphere"], name: "start_2dsphere"),
    ]

    package func insert(_ segment: SegmentRecord) async throws {
        try await collection.insertOne(Self.document(segment))
    }

    /// The segment `id`, whoever owns it (segments are readable by anyone signed in).
    package func find(id: String) async throws -> SegmentRecord? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id)]).map(Self.record)
    }

    /// `owner`'s segments, newest first.
    package func segments(of owner: String) async throws -> [SegmentRecord] {
        try await collection.find(["owner": .string(owner)], sort: ["created_at": -1, "_id": -1]).map(Self.record)
    }

    /// Segments whose start may lie within `radiusM` of `centre`: candidates from the `2dsphere`
    /// index, which measures on a sphere, so the radius is padded (1 % and 10 m); callers decide
    /// with exact WGS84 geodesic distances.
    package func startingNear(_ centre: Coordinate, radiusM: Double) async throws -> [SegmentRecord] {
        let meanEarthRadiusM = 6_371_008.8
        let padded = min((radiusM * 1.01 + 10) / meanEarthRadiusM, Double.pi)
        let filter: BSONDocument = [
            "start": ["$geoWithin": ["$centerSphere": [[.double(centre.lon), .double(centre.lat)], .double(padded)]]]
        ]
        return try await collection.find(filter, sort: ["_id": 1]).map(Self.record)
    }

    /// Deletes `id` if `owner` owns it; whether it did.
    package func delete(id: String, owner: String) async throws -> Bool {
        try await collection.deleteOne(["_id": .string(id), "owner": .string(owner)]) == 1
    }

    private static func document(_ segment: SegmentRecord) -> BSONDocument {
        [
            "_id": .string(segment.id), "owner": .string(segment.owner), "name": .string(segment.name),
            "lat": .binary(subtype: 0, PackedDoubles.bytes(segment.points.map(\.lat))),
            "lon": .binary(subtype: 0, PackedDoubles.bytes(segment.points.map(\.lon))),
            "length_m": .double(segment.lengthM), "created_at": .date(segment.createdAt),
            "start": ["type": "Point", "coordinates": [.double(segment.start.lon), .double(segment.start.lat)]],
        ]
    }

    private static func record(_ document: BSONDocument) throws -> SegmentRecord {
        guard let id = document.string("_id"), let owner = document.string("owner"),
            let name = document.string("name"), let lengthM = document.double("length_m"),
            let createdAt = document.date("created_at"),
            let lat = document.binary("lat").flatMap(PackedDoubles.doubles),
            let lon = document.binary("lon").flatMap(PackedDoubles.doubles), lat.count == lon.count, !lat.isEmpty
        else { throw StorageError.malformed("segment", document.string("_id")) }
        let points = zip(lat, lon).map { Coordinate(lat: $0, lon: $1) }
        return SegmentRecord(id: id, owner: owner, name: name, points: points, lengthM: lengthM, createdAt: createdAt)
    }
}
