import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// How a route is laid out in `routes`.
///
/// The statistics' running state is kept field by field in `stats_state` (see
/// `StatsAccumulator+BSON.swift`): BSON doubles read back to the same bits, so the state survives
/// storage exactly, which the "any split into batches gives the same stats" invariant needs. The
/// figures that lists sort and groups aggregate on are copied into `metrics`, and the committed
/// point count into `point_count`, so that queries never decode the state. The start is in
/// `RouteStartRepository`, out of the document every append rewrites. `buckets` and `tail` are the
/// `PointLayout`: which full buckets are committed, and the points after them. `readers` (the
/// users it is shared with) is read here but written only by `ShareRepository`. `commits` (see
/// `RouteRepository.commit`) is written by the commit's update alone and read by nobody else.
extension StoredRoute {
    package var document: BSONDocument {
        get throws {
            let route = record
            guard route.annotationsLoaded else { throw StorageError.partialRoute(route.id) }
            let stats = route.stats
            var document: BSONDocument = [
                "_id": .string(route.id),
                "owner": .string(route.owner),
                "name": .string(route.name),
                "activity": .string(route.activity.rawValue),
                "state": .string(route.state.rawValue),
                "created_at": .date(route.createdAt),
                "started_at": route.startedAt.map(BSONValue.date) ?? .null,
                "version": .int(route.version),
                "point_count": .int(route.pointCount),
                "annotations": .array(route.annotations.map(RouteRecord.annotationValue)),
                "stats_state": .document(route.accumulator.bson),
                "metrics": [
                    "distance_m": .double(stats.distanceM),
                    "duration_s": .double(stats.durationS),
                    "moving_time_s": .double(stats.movingTimeS),
                    "avg_speed_mps": .double(stats.avgSpeedMps),
                    "avg_pace_s_per_km": stats.avgPaceSPerKm.map(BSONValue.double) ?? .null,
                    // For the training log's projected read (routes stored before it lack it).
                    "elevation_gain_m": stats.elevationGainM.map(BSONValue.double) ?? .null,
                ],
                "buckets": .array(layout.buckets.map { .string($0) }),
                "tail": layout.tailValue,
            ]
            if let fingerprint = route.fingerprint { document["fingerprint"] = .string(fingerprint) }
            return document
        }
    }

    package init(document: BSONDocument) throws {
        guard let id = document.string("_id"), let owner = document.string("owner"),
            let name = document.string("name"),
            let activity = document.string("activity").flatMap(Activity.init(rawValue:)),
            let state = document.string("state").flatMap(RouteState.init(rawValue:)),
            let createdAt = document.date("created_at"), let version = document.int("version"),
            let accumulator = document.document("stats_state").flatMap(StatsAccumulator.init(bson:)),
            let layout = PointLayout(buckets: document.array("buckets") ?? [], tail: document.document("tail") ?? [:])
        else { throw StorageError.malformed("route", document.string("_id")) }
        var record = RouteRecord(
            id: id, owner: owner, name: name, activity: activity, state: state, createdAt: createdAt,
            annotations: (document.array("annotations") ?? []).compactMap(RouteRecord.annotation),
            accumulator: accumulator, version: version,
            readers: (document.array("readers") ?? []).compactMap(\.stringValue))
        // Every route this version writes has the field: without it, a list read it (see
        // `RouteRepository.withoutAnnotations`).
        record.annotationsLoaded = document.array("annotations") != nil
        guard layout.count == record.pointCount else { throw StorageError.malformed("route", id) }
        self.init(record, layout: layout)
    }
}

extension RouteRecord {
    /// An annotation as a route document stores it.
    package static func annotationValue(_ annotation: Annotation) -> BSONValue {
        [
            "lat": .double(annotation.lat), "lon": .double(annotation.lon),
            "t": annotation.t.map(BSONValue.double) ?? .null, "text": .string(annotation.text),
        ]
    }

    /// An annotation as stored, or nil if it is malformed (dropped from the record).
    package static func annotation(_ value: BSONValue) -> Annotation? {
        guard let document = value.documentValue, let lat = document.double("lat"), let lon = document.double("lon"),
            let text = document.string("text")
        else { return nil }
        return Annotation(lat: lat, lon: lon, t: document.double("t"), text: text)
    }
}

extension BSONDocument {
    /// This document without `key`.
    package func removing(_ key: String) -> BSONDocument {
        var copy = self
        copy[key] = nil
        return copy
    }
}

extension RouteRecord {
    /// A finished route's kept points summed up as first `t`, last `t` and count: an import
    /// creates nothing for a file whose points give the same as one of the owner's routes
    /// (API.md: duplicates). Recording routes have none (their points still change).
    package var fingerprint: String? {
        guard state == .finished, let first = accumulator.first, let last = accumulator.last else { return nil }
        return "\(first.t):\(last.t):\(pointCount)"
    }
}
