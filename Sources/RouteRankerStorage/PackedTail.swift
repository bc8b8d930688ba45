import RouteRankerCore

/// A route's open tail as its document stores it: five packed lists of doubles (`PackedDoubles`),
/// one per field, NaN for an absent `ele` or `acc` (valid points never hold NaN).
///
/// It stays packed from the read of a route to its next commit: most reads (a summary, a page of
/// a list, the inbox) never look at the points, and a commit compares the new tail with the
/// stored one (`RouteRepository.commit`) as the bytes it read, instead of decoding up to 999
/// points on every read and packing them again on every commit.
package struct PackedTail: Sendable, Equatable {
    private var t: [UInt8] = []
    private var lat: [UInt8] = []
    private var lon: [UInt8] = []
    private var ele: [UInt8] = []
    private var acc: [UInt8] = []

    /// How many points it holds.
    package var count: Int { t.count / 8 }

    package init() {}

    /// Packs `points`.
    package init(_ points: [TrackPoint]) {
        t = PackedDoubles.bytes(points.lazy.map(\.t))
        lat = PackedDoubles.bytes(points.lazy.map(\.lat))
        lon = PackedDoubles.bytes(points.lazy.map(\.lon))
        ele = PackedDoubles.bytes(points.lazy.map { $0.ele ?? .nan })
        acc = PackedDoubles.bytes(points.lazy.map { $0.acc ?? .nan })
    }

    /// The tail from its five stored lists, or nil if a list is not whole doubles or differs from
    /// the others in length.
    package init?(t: [UInt8], lat: [UInt8], lon: [UInt8], ele: [UInt8], acc: [UInt8]) {
        guard t.count % 8 == 0, [lat.count, lon.count, ele.count, acc.count].allSatisfy({ $0 == t.count }) else {
            return nil
        }
        (self.t, self.lat, self.lon, self.ele, self.acc) = (t, lat, lon, ele, acc)
    }

    /// Adds `points` after the ones it holds, without decoding those: the bytes are appended.
    package mutating func append(_ points: [TrackPoint]) {
        guard !points.isEmpty else { return }
        t += PackedDoubles.bytes(points.lazy.map(\.t))
        lat += PackedDoubles.bytes(points.lazy.map(\.lat))
        lon += PackedDoubles.bytes(points.lazy.map(\.lon))
        ele += PackedDoubles.bytes(points.lazy.map { $0.ele ?? .nan })
        acc += PackedDoubles.bytes(points.lazy.map { $0.acc ?? .nan })
    }

    /// The points, decoded.
    package var points: [TrackPoint] {
        guard let t = PackedDoubles.doubles(t), let lat = PackedDoubles.doubles(lat),
            let lon = PackedDoubles.doubles(lon), let ele = PackedDoubles.doubles(ele),
            let acc = PackedDoubles.doubles(acc)
        else { return [] }  // unreachable: both initializers keep whole doubles, all of one length
        return t.indices.map { i in
            TrackPoint(
                lat: lat[i], lon: lon[i], t: t[i], ele: ele[i].isNaN ? nil : ele[i], acc: acc[i].isNaN ? nil : acc[i])
        }
    }

    /// The five packed lists, as stored.
    package var lists: (t: [UInt8], lat: [UInt8], lon: [UInt8], ele: [UInt8], acc: [UInt8]) { (t, lat, lon, ele, acc) }
}
