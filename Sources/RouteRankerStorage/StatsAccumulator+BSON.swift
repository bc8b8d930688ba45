import Mongo
import RouteRankerCore
import RouteRankerModels

/// How a route's statistics state is laid out in its document (`stats_state`): one BSON field per
/// accumulator field. Numbers are BSON doubles (or int64 for counts) and the variable-length lists
/// are `PackedDoubles`, so every value reads back to the same bits — the "any split into batches
/// gives the same stats" invariant holds across storage — and reading it costs no text parsing
/// (it used to be a JSON string decoded with `JSONDecoder` on every route read).
extension StatsAccumulator {
    package var bson: BSONDocument {
        var document = BSONDocument()
        document.reserveCapacity(12)
        document.append("activity", .string(activity.rawValue))
        document.append("spike_run", .int(spikeRun))
        document.append("count", .int(count))
        document.append("first", first.map(Self.pointValue) ?? .null)
        document.append("last", last.map(Self.pointValue) ?? .null)
        document.append("distance", .double(distance))
        document.append("moving_time", .double(movingTime))
        document.append(
            "elevation",
            elevation.map { ["reference": .double($0.reference), "gain": .double($0.gain), "loss": .double($0.loss)] }
                ?? .null)
        document.append(
            "bbox",
            bbox.map {
                [
                    "min_lon": .double($0.minLon), "min_lat": .double($0.minLat), "max_lon": .double($0.maxLon),
                    "max_lat": .double($0.maxLat),
                ]
            } ?? .null)
        document.append(
            "window",
            [
                "times": .binary(subtype: 0, PackedDoubles.bytes(window.times)),
                "distances": .binary(subtype: 0, PackedDoubles.bytes(window.distances)),
                "best": .double(window.best),
            ])
        document.append("splits", .binary(subtype: 0, PackedDoubles.bytes(splits)))
        document.append("boundary_time", .double(boundaryTime))
        return document
    }

    /// The accumulator `bson` wrote, or nil if any field is missing or of another type.
    package init?(bson document: BSONDocument) {
        guard let activity = document.string("activity").flatMap(Activity.init(rawValue:)),
            let spikeRun = document.int("spike_run"), let count = document.int("count"),
            let first = Self.optional(document["first"], Self.point),
            let last = Self.optional(document["last"], Self.point),
            let distance = Self.exactDouble(document["distance"]),
            let movingTime = Self.exactDouble(document["moving_time"]),
            let elevation = Self.optional(document["elevation"], Self.elevation),
            let bbox = Self.optional(document["bbox"], Self.box),
            let window = document.document("window").flatMap(Self.window),
            let splits = document.binary("splits").flatMap(PackedDoubles.doubles),
            let boundaryTime = Self.exactDouble(document["boundary_time"])
        else { return nil }
        self.init(
            restoring: activity, spikeRun: spikeRun, count: count, first: first, last: last, distance: distance,
            movingTime: movingTime, elevation: elevation, bbox: bbox, window: window, splits: splits,
            boundaryTime: boundaryTime)
    }

    private static func pointValue(_ point: TrackPoint) -> BSONValue {
        var document: BSONDocument = ["lat": .double(point.lat), "lon": .double(point.lon), "t": .double(point.t)]
        if let ele = point.ele { document.append("ele", .double(ele)) }
        if let acc = point.acc { document.append("acc", .double(acc)) }
        return .document(document)
    }

    private static func point(_ value: BSONValue) -> TrackPoint? {
        guard let document = value.documentValue, let lat = exactDouble(document["lat"]),
            let lon = exactDouble(document["lon"]), let t = exactDouble(document["t"])
        else { return nil }
        return TrackPoint(
            lat: lat, lon: lon, t: t, ele: exactDouble(document["ele"]), acc: exactDouble(document["acc"]))
    }

    private static func elevation(_ value: BSONValue) -> ElevationState? {
        guard let document = value.documentValue, let reference = exactDouble(document["reference"]),
            let gain = exactDouble(document["gain"]), let loss = exactDouble(document["loss"])
        else { return nil }
        return ElevationState(reference: reference, gain: gain, loss: loss)
    }

    private static func box(_ value: BSONValue) -> BoundingBox? {
        guard let document = value.documentValue, let minLon = exactDouble(document["min_lon"]),
            let minLat = exactDouble(document["min_lat"]), let maxLon = exactDouble(document["max_lon"]),
            let maxLat = exactDouble(document["max_lat"])
        else { return nil }
        return BoundingBox(minLon: minLon, minLat: minLat, maxLon: maxLon, maxLat: maxLat)
    }

    private static func window(_ document: BSONDocument) -> MaxSpeedWindow? {
        guard let times = document.binary("times").flatMap(PackedDoubles.doubles),
            let distances = document.binary("distances").flatMap(PackedDoubles.doubles),
            times.count == distances.count, let best = exactDouble(document["best"])
        else { return nil }
        return MaxSpeedWindow(restoring: times, distances: distances, best: best)
    }

    /// Only a BSON double: any other numeric type could not have been written here, and reading it
    /// would hide a malformed document.
    private static func exactDouble(_ value: BSONValue?) -> Double? {
        if case .double(let v)? = value { v } else { nil }
    }

    /// `.some(nil)` for a null field, `.some(value)` for a well-formed one, nil for anything else.
    private static func optional<T>(_ value: BSONValue?, _ read: (BSONValue) -> T?) -> T?? {
        guard let value else { return nil }
        if case .null = value { return .some(nil) }
        return read(value).map { .some($0) }
    }
}
