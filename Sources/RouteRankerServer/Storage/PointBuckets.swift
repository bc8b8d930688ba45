import Mongo
import RouteRankerCore

/// A route's points in `points`, as buckets of parallel arrays (`t`, `lat`, `lon`, `ele`, `acc`).
///
/// Bucket `seq` of a route holds its points `[1000·seq, 1000·seq + 1000)`, so every bucket but the
/// last is full and point `i` is always in bucket `i / 1000`. What is visible is decided by the
/// route document alone: readers take the route's committed point count from it and never look past
/// that many points. A writer may therefore write buckets (and extend the last one) before it
/// commits; if it fails, what it wrote is past the count, invisible, and overwritten by the next
/// writer. Every bucket write is an upsert keyed by `_id` `"<route>:<seq>"`, so it is idempotent.
struct PointBuckets: Sendable {
    static let capacity = 1000
    static let indexes = [MongoIndex(keys: ["route": 1, "seq": 1], name: "route_seq", unique: true)]

    let collection: MongoCollection

    init(database: MongoDatabase) {
        collection = database.collection("points")
    }

    static func id(route: String, seq: Int) -> String { "\(route):\(seq)" }

    /// The upsert that stores `points` as bucket `seq` (replacing whatever was there).
    static func write(route: String, seq: Int, points: some Collection<TrackPoint>) -> (BSONDocument, BSONDocument) {
        var t: [BSONValue] = [], lat: [BSONValue] = [], lon: [BSONValue] = []
        var ele: [BSONValue] = [], acc: [BSONValue] = []
        t.reserveCapacity(points.count)
        lat.reserveCapacity(points.count)
        lon.reserveCapacity(points.count)
        ele.reserveCapacity(points.count)
        acc.reserveCapacity(points.count)
        for point in points {
            t.append(.double(point.t))
            lat.append(.double(point.lat))
            lon.append(.double(point.lon))
            ele.append(point.ele.map(BSONValue.double) ?? .null)
            acc.append(point.acc.map(BSONValue.double) ?? .null)
        }
        let filter: BSONDocument = ["_id": .string(id(route: route, seq: seq))]
        let update: BSONDocument = [
            "$set": [
                "route": .string(route), "seq": .int(seq), "n": .int(points.count),
                "t": .array(t), "lat": .array(lat), "lon": .array(lon), "ele": .array(ele), "acc": .array(acc),
            ]
        ]
        return (filter, update)
    }

    /// Writes bucket `seq` outside any transaction (durably, like every write).
    func write(route: String, seq: Int, points: some Collection<TrackPoint>) async throws {
        let (filter, update) = Self.write(route: route, seq: seq, points: points)
        try await collection.updateOne(filter: filter, update: update, upsert: true)
    }

    /// The committed points of the bucket that an append continues, i.e. the first
    /// `committed % 1000` points of bucket `committed / 1000` (none when that bucket is new).
    func openBucket(route: String, committed: Int) async throws -> [TrackPoint] {
        let keep = committed % Self.capacity
        guard keep > 0 else { return [] }
        let filter: BSONDocument = ["_id": .string(Self.id(route: route, seq: committed / Self.capacity))]
        guard let document = try await collection.findOne(filter) else {
            throw StorageError.malformed("bucket", Self.id(route: route, seq: committed / Self.capacity))
        }
        let points = try Self.points(of: document)
        guard points.count >= keep else { throw StorageError.malformed("bucket", document.string("_id")) }
        return Array(points.prefix(keep))
    }

    /// The first `count` points of `route`, bucket by bucket, in order, with bounded memory.
    func read(route: String, count: Int) -> AsyncThrowingStream<[TrackPoint], any Error> {
        let buckets = (count + Self.capacity - 1) / Self.capacity
        let stream = collection.findStream(
            ["route": .string(route), "seq": ["$lt": .int(buckets)]], sort: ["seq": 1], batchSize: 4)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var remaining = count
                    var expected = 0
                    for try await batch in stream {
                        for document in batch where remaining > 0 {
                            guard document.int("seq") == expected else {
                                throw StorageError.malformed("bucket", Self.id(route: route, seq: expected))
                            }
                            expected += 1
                            let points = try Self.points(of: document).prefix(remaining)
                            remaining -= points.count
                            continuation.yield(Array(points))
                        }
                    }
                    guard remaining == 0 else { throw StorageError.malformed("bucket", route) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Removes every bucket of `route`, committed or not.
    func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    /// Decodes a bucket's parallel arrays.
    static func points(of document: BSONDocument) throws -> [TrackPoint] {
        guard let t = document.array("t"), let lat = document.array("lat"), let lon = document.array("lon"),
            lat.count == t.count, lon.count == t.count
        else { throw StorageError.malformed("bucket", document.string("_id")) }
        let ele = document.array("ele") ?? []
        let acc = document.array("acc") ?? []
        var points: [TrackPoint] = []
        points.reserveCapacity(t.count)
        for i in t.indices {
            guard let time = t[i].doubleValue, let la = lat[i].doubleValue, let lo = lon[i].doubleValue else {
                throw StorageError.malformed("bucket", document.string("_id"))
            }
            points.append(
                TrackPoint(
                    lat: la, lon: lo, t: time, ele: i < ele.count ? ele[i].doubleValue : nil,
                    acc: i < acc.count ? acc[i].doubleValue : nil))
        }
        return points
    }
}
