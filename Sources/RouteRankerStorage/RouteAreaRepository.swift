import Foundation
import Mongo
import RouteRankerCore

/// The area each matched finished route covers, in `route_areas` (`_id` the route id): its
/// bounding box grown by a margin, as a GeoJSON polygon under a `2dsphere` index, so that a new
/// segment finds the routes that can reach its start without a scan of `routes`. Written when a
/// route's efforts are matched, with the route version they were matched at (`key`), so that a
/// retried finish can tell whether matching completed.
///
/// A box that a polygon cannot describe well (within 5° of a pole, across the antimeridian, or
/// wider than 180°) is stored as `everywhere: true` instead: such routes are candidates for every
/// segment, found through their own index.
package struct RouteAreaRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("route_areas")
    }

    package static let indexes = [
        MongoIndex(keys: ["area": "2dsphere"], name: "area_2dsphere", sparse: true),
        MongoIndex(keys: ["everywhere": 1], name: "everywhere", sparse: true),
    ]

    /// A route that may reach a point: its id, owner and grown box.
    package struct Area: Sendable {
        package var route: String
        package var owner: String
        package var box: PaddedBox

        package init(route: String, owner: String, box: PaddedBox) {
            self.route = route
            self.owner = owner
            self.box = box
        }
    }

    /// Records that `route` (owned by `owner`, with bounding box `bbox`) was matched at `version`.
    package func record(route: String, owner: String, bbox: BoundingBox, version: Int) async throws {
        let box = PaddedBox(bbox)
        var set: BSONDocument = [
            "owner": .string(owner), "key": .string(Self.key(version)),
            "box": [.double(box.minLon), .double(box.minLat), .double(box.maxLon), .double(box.maxLat)],
        ]
        var unset: BSONDocument = [:]
        if let ring = box.ring {
            set["area"] = [
                "type": "Polygon", "coordinates": [.array(ring.map { [.double($0.lon), .double($0.lat)] })],
            ]
            unset["everywhere"] = ""
        } else {
            set["everywhere"] = true
            unset["area"] = ""
        }
        try await collection.updateOne(
            filter: ["_id": .string(route)], update: ["$set": .document(set), "$unset": .document(unset)],
            upsert: true)
    }

    /// Whether `route`'s efforts were matched at `version`.
    package func isMatched(route: String, version: Int) async throws -> Bool {
        try await collection.findOne(["_id": .string(route)], projection: ["key": 1])?.string("key")
            == Self.key(version)
    }

    /// The routes whose grown box contains `point` (the index's candidates, then the exact box test).
    package func reaching(_ point: Coordinate) async throws -> [Area] {
        let geometry: BSONDocument = ["type": "Point", "coordinates": [.double(point.lon), .double(point.lat)]]
        let projection: BSONDocument = ["owner": 1, "box": 1]
        let near = try await collection.find(
            ["area": ["$geoIntersects": ["$geometry": .document(geometry)]]], projection: projection)
        let everywhere = try await collection.find(["everywhere": true], projection: projection)
        return (near + everywhere).compactMap(Self.area).filter { $0.box.contains(point) }
    }

    /// Which of `routes` still have an area (by `_id`).
    package func existing(_ routes: Set<String>) async throws -> Set<String> {
        let found = try await collection.find(ids: routes.map { .string($0) }, projection: ["_id": 1])
        return Set(found.compactMap { $0.string("_id") })
    }

    package func delete(route: String) async throws {
        _ = try await collection.deleteOne(["_id": .string(route)])
    }

    private static func key(_ version: Int) -> String { "v\(version)" }

    private static func area(_ document: BSONDocument) -> Area? {
        guard let route = document.string("_id"), let owner = document.string("owner"),
            let values = document.array("box")?.compactMap(\.doubleValue), values.count == 4
        else { return nil }
        let box = PaddedBox(minLon: values[0], minLat: values[1], maxLon: values[2], maxLat: values[3])
        return Area(route: route, owner: owner, box: box)
    }
}

/// A route's bounding box grown so that every point within 25 m of the route's path lies inside,
/// with room to spare: 50 m plus 1 % of the box's larger side (the polygon's edges are geodesics,
/// which bow off the parallels by less than 0.3 % of a 1° edge).
package struct PaddedBox: Sendable, Equatable {
    package var minLon: Double
    package var minLat: Double
    package var maxLon: Double
    package var maxLat: Double

    package init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }

    package init(_ bbox: BoundingBox) {
        let widthM = (bbox.maxLon - bbox.minLon) * 111_320 * cos(max(abs(bbox.minLat), abs(bbox.maxLat)) * .pi / 180)
        let heightM = (bbox.maxLat - bbox.minLat) * 111_320
        let padM = 50 + 0.01 * max(widthM, heightM, 0)
        let latPad = padM / 110_000
        let poleward = min(89.999, max(abs(bbox.minLat), abs(bbox.maxLat)) + latPad)
        let lonPad = padM / (110_000 * cos(poleward * .pi / 180))
        self.init(
            minLon: bbox.minLon - lonPad, minLat: max(-90, bbox.minLat - latPad), maxLon: bbox.maxLon + lonPad,
            maxLat: min(90, bbox.maxLat + latPad))
    }

    /// Whether `point` lies in the box (in degrees). A box across the antimeridian has a longitude
    /// past ±180 on one side; the point is tried shifted by 360° too.
    package func contains(_ point: Coordinate) -> Bool {
        guard point.lat >= minLat, point.lat <= maxLat else { return false }
        return [point.lon, point.lon - 360, point.lon + 360].contains { $0 >= minLon && $0 <= maxLon }
    }

    /// The counter-clockwise closed ring of the box with edges of at most 1°, or nil when a polygon
    /// would not describe it well (near a pole, across the antimeridian, wider than 180°).
    package var ring: [Coordinate]? {
        guard minLat > -85, maxLat < 85, minLon >= -180, maxLon <= 180, maxLon - minLon < 180 else { return nil }
        func pieces(_ a: Double, _ b: Double) -> [Double] {
            let n = abs(b - a).clampedInt(in: 1...360, rounding: .up)
            return (0..<n).map { a + (b - a) * Double($0) / Double(n) }
        }
        var ring: [Coordinate] = []
        ring += pieces(minLon, maxLon).map { Coordinate(lat: minLat, lon: $0) }
        ring += pieces(minLat, maxLat).map { Coordinate(lat: $0, lon: maxLon) }
        ring += pieces(maxLon, minLon).map { Coordinate(lat: maxLat, lon: $0) }
        ring += pieces(maxLat, minLat).map { Coordinate(lat: $0, lon: minLon) }
        ring.append(ring[0])
        return ring
    }

    /// A circle (centre, radius in metres) around the box, for `$centerSphere` queries: the
    /// farthest of its corners and edge midpoints from the centre, plus 1 %.
    package var circle: (centre: Coordinate, radiusM: Double) {
        let centre = Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2)
        let probes = [minLat, centre.lat, maxLat].flatMap { lat in
            [minLon, centre.lon, maxLon].map { Coordinate(lat: lat, lon: $0) }
        }
        let farthest = probes.map { Geodesic.distance(from: centre, to: $0) }.max() ?? 0
        return (centre, farthest * 1.01 + 10)
    }
}
