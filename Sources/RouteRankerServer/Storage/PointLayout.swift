import Mongo
import RouteRankerCore

/// Where a route's committed points are: the full buckets in `points`, each named by the request
/// that wrote it, and the open tail of fewer than 1000 points, kept in the route document itself.
///
/// This is what makes a single version-guarded update of the route document the commit point of
/// an append (no multi-document transaction, no lock left behind by a crashed writer): a writer
/// first stores the buckets it fills under its own id, which no other writer uses, and then
/// commits the route document that names them. Buckets of a writer that failed or lost the race
/// are named by no route document, so no reader ever sees them.
struct PointLayout: Sendable, Equatable {
    /// `buckets[seq]` is the writer id of full bucket `seq` (points `[1000·seq, 1000·seq + 1000)`).
    var buckets: [String] = []
    /// The committed points after the last full bucket.
    var tail: [TrackPoint] = []

    /// How many points the layout holds.
    var count: Int { buckets.count * PointBuckets.capacity + tail.count }

    /// The tail as the route document stores it: packed doubles, NaN for an absent `ele`/`acc`
    /// (valid points never hold NaN).
    var tailValue: BSONValue {
        [
            "t": .binary(subtype: 0, PackedDoubles.bytes(tail.map(\.t))),
            "lat": .binary(subtype: 0, PackedDoubles.bytes(tail.map(\.lat))),
            "lon": .binary(subtype: 0, PackedDoubles.bytes(tail.map(\.lon))),
            "ele": .binary(subtype: 0, PackedDoubles.bytes(tail.map { $0.ele ?? .nan })),
            "acc": .binary(subtype: 0, PackedDoubles.bytes(tail.map { $0.acc ?? .nan })),
        ]
    }

    init(buckets: [String] = [], tail: [TrackPoint] = []) {
        self.buckets = buckets
        self.tail = tail
    }

    /// Reads the layout back from a route document's `buckets` and `tail`.
    init?(buckets: [BSONValue], tail: BSONDocument) {
        let writers = buckets.compactMap(\.stringValue)
        guard writers.count == buckets.count,
            let t = tail.binary("t").flatMap(PackedDoubles.doubles),
            let lat = tail.binary("lat").flatMap(PackedDoubles.doubles),
            let lon = tail.binary("lon").flatMap(PackedDoubles.doubles),
            let ele = tail.binary("ele").flatMap(PackedDoubles.doubles),
            let acc = tail.binary("acc").flatMap(PackedDoubles.doubles),
            [lat.count, lon.count, ele.count, acc.count].allSatisfy({ $0 == t.count })
        else { return nil }
        self.buckets = writers
        self.tail = t.indices.map { i in
            TrackPoint(
                lat: lat[i], lon: lon[i], t: t[i], ele: ele[i].isNaN ? nil : ele[i], acc: acc[i].isNaN ? nil : acc[i])
        }
    }
}
