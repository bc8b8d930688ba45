import Mongo
import RouteRankerCore
import RouteRankerModels

extension PackedTail {
    /// The tail stored in a route document, or nil if a list is missing, is not whole doubles, or
    /// differs from the others in length.
    package init?(_ document: BSONDocument) {
        guard let t = document.binary("t"), let lat = document.binary("lat"), let lon = document.binary("lon"),
            let ele = document.binary("ele"), let acc = document.binary("acc")
        else { return nil }
        self.init(t: t, lat: lat, lon: lon, ele: ele, acc: acc)
    }

    /// The route document's `tail`: one binary field per list.
    package var value: BSONValue {
        let lists = self.lists
        return [
            "t": .binary(subtype: 0, lists.t), "lat": .binary(subtype: 0, lists.lat),
            "lon": .binary(subtype: 0, lists.lon), "ele": .binary(subtype: 0, lists.ele),
            "acc": .binary(subtype: 0, lists.acc),
        ]
    }
}

extension PointLayout {
    /// The tail as the route document stores it.
    package var tailValue: BSONValue { packedTail.value }

    /// Reads the layout back from a route document's `buckets` and `tail`.
    package init?(buckets: [BSONValue], tail: BSONDocument) {
        let writers = buckets.compactMap(\.stringValue)
        guard writers.count == buckets.count, let packed = PackedTail(tail) else { return nil }
        self.init(buckets: writers, packedTail: packed)
    }
}
