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
/// users it is shared with) is read here but written only by `ShareRepository`.
extension RouteRecord {
    package var document: BSONDocument {
        get throws {
            guard annotationsLoaded else { throw StorageError.partialRoute(id) }
            let stats = stats
            var document: BSONDocument = [
                "_id": .string(id),
                "owner": .string(owner),
                "name": .string(name),
                "activity": .string(activity.rawValue),
                "state": .string(state.rawValue),
                "created_at": .date(createdAt),
                "started_at": startedAt.map(BSONValue.date) ?? .null,
                "version": .int(version),
                "point_count": .int(pointCount),
                "annotations": .array(annotations.map(Self.annotationValue)),
                "stats_state": .document(accumulator.bson),
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
            if let fingerprint { document["fingerprint"] = .string(fingerprint) }
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
        self.init(
            id: id, owner: owner, name: name, activity: activity, state: state, createdAt: createdAt,
            annotations: (document.array("annotations") ?? []).compactMap(Self.annotation),
            accumulator: accumulator,
            version: version, layout: layout,
            readers: (document.array("readers") ?? []).compactMap(\.stringValue))
        // Every route this version writes has the field: without it, a list read it (see
        // `RouteRepository.withoutAnnotations`).
        annotationsLoaded = document.array("annotations") != nil
        guard self.layout.count == pointCount else { throw StorageError.malformed("route", id) }
    }

    package static func annotationValue(_ annotation: Annotation) -> BSONValue {
        [
            "lat": .double(annotation.lat), "lon": .double(annotation.lon),
            "t": annotation.t.map(BSONValue.double) ?? .null, "text": .string(annotation.text),
        ]
    }

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
