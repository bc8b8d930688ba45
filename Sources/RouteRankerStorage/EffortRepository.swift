import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Stored efforts in `efforts`, one document per effort (`_id` `"<segment>:<route>:<start index>"`),
/// so storing the same match twice is harmless. Reads go by segment; deletions by segment or route.
package struct EffortRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("efforts")
    }

    package static let indexes = [
        MongoIndex(keys: ["segment": 1, "elapsed_s": 1], name: "segment_elapsed_s"),
        MongoIndex(keys: ["segment": 1, "owner": 1, "elapsed_s": 1], name: "segment_owner_elapsed_s"),
        MongoIndex(keys: ["route": 1], name: "route"),
    ]

    /// Stores `efforts`; those already stored stay as they are (an effort's content follows from its
    /// id: a finished route's points and a segment never change).
    package func insert(_ efforts: [EffortRecord]) async throws {
        guard !efforts.isEmpty else { return }
        for batch in stride(from: 0, to: efforts.count, by: 1000) {
            do {
                try await collection.insertMany(
                    efforts[batch..<min(batch + 1000, efforts.count)].map(Self.document), ordered: false)
            } catch MongoError.duplicateKey {
                // Unordered: every other document of the batch was inserted.
            }
        }
    }

    /// Makes `efforts` the efforts of `route`: stores them, then removes the route's others.
    package func replace(route: String, with efforts: [EffortRecord]) async throws {
        try await insert(efforts)
        _ = try await collection.deleteMany([
            "route": .string(route), "_id": ["$nin": .array(efforts.map { .string($0.id) })],
        ])
    }

    /// The efforts on `segment`, of `owner` only when given, fastest first.
    package func efforts(segment: String, owner: String? = nil) async throws -> [EffortRecord] {
        var filter: BSONDocument = ["segment": .string(segment)]
        if let owner { filter["owner"] = .string(owner) }
        return try await collection.find(filter, sort: ["elapsed_s": 1, "_id": 1]).map(Self.record)
    }

    package func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    package func deleteAll(segment: String) async throws {
        _ = try await collection.deleteMany(["segment": .string(segment)])
    }

    private static func document(_ effort: EffortRecord) -> BSONDocument {
        [
            "_id": .string(effort.id), "segment": .string(effort.segment), "route": .string(effort.route),
            "owner": .string(effort.owner), "start_index": .int(effort.startIndex),
            "end_index": .int(effort.endIndex), "elapsed_s": .double(effort.elapsedS),
            "start_t": .double(effort.startT),
            "start": [.double(effort.start.lon), .double(effort.start.lat)],
            "end": [.double(effort.end.lon), .double(effort.end.lat)],
        ]
    }

    private static func record(_ document: BSONDocument) throws -> EffortRecord {
        guard let segment = document.string("segment"), let route = document.string("route"),
            let owner = document.string("owner"), let startIndex = document.int("start_index"),
            let endIndex = document.int("end_index"), let elapsedS = document.double("elapsed_s"),
            let startT = document.double("start_t"), let start = coordinate(document.array("start")),
            let end = coordinate(document.array("end"))
        else { throw StorageError.malformed("effort", document.string("_id")) }
        return EffortRecord(
            segment: segment, route: route, owner: owner, startIndex: startIndex, endIndex: endIndex,
            elapsedS: elapsedS, startT: startT, start: start, end: end)
    }

    private static func coordinate(_ values: [BSONValue]?) -> Coordinate? {
        guard let values, values.count == 2, let lon = values[0].doubleValue, let lat = values[1].doubleValue else {
            return nil
        }
        return Coordinate(lat: lat, lon: lon)
    }
}
