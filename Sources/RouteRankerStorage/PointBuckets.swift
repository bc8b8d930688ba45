import Mongo
import RouteRankerCore
import RouteRankerModels

/// A route's full buckets in `points`: 1000 consecutive points each, as parallel arrays (`t`,
/// `lat`, `lon`, `ele`, `acc`), keyed by (route, seq, writer). Which buckets are committed is
/// said by the route document alone (see `PointLayout`); readers never look at any other.
package struct PointBuckets: Sendable {
    package static let capacity = PointLayout.bucketCapacity
    package static let indexes = [
        MongoIndex(keys: ["route": 1, "seq": 1, "writer": 1], name: "route_seq_writer", unique: true)
    ]

    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("points")
    }

    /// A new writer id: one per request, so that no two requests ever write the same bucket.
    package static func newWriter() -> String { NewID.make() }

    /// A full bucket as its writer wrote it, to be stored: by the commit that names it
    /// (`RouteRepository.commit`), which stores it and then commits in one queue shared with
    /// concurrent commits, or by itself (`write`).
    package struct Pending: Sendable {
        package let buckets: PointBuckets
        package let document: BSONDocument

        package init(buckets: PointBuckets, document: BSONDocument) {
            self.buckets = buckets
            self.document = document
        }

        /// Stores the bucket by itself: an insert (the cheapest write the database has, as the
        /// direct-insert ceiling makes), with the buckets that concurrent requests insert
        /// meanwhile (one command, one commit). A duplicate key means this very bucket is stored
        /// already — a retried insert — since no other writer uses its writer id.
        package func write() async throws {
            do {
                try await buckets.collection.insertOneCoalesced(document)
            } catch MongoError.duplicateKey {
                // Stored by an earlier attempt of this insert.
            }
        }
    }

    /// A full bucket as `writer` wrote it, not stored yet (see `Pending`).
    package func pending(route: String, seq: Int, writer: String, points: some Collection<TrackPoint>) -> Pending {
        Pending(buckets: self, document: Self.document(route: route, seq: seq, writer: writer, points: points))
    }

    /// The document of a full bucket as `writer` wrote it. Its key is the writer's alone, so a
    /// duplicate key on insert means this very bucket is stored already.
    package static func document(route: String, seq: Int, writer: String, points: some Collection<TrackPoint>)
        -> BSONDocument
    {
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
        return [
            "_id": .string("\(route):\(seq):\(writer)"),
            "route": .string(route), "seq": .int(seq), "writer": .string(writer), "n": .int(points.count),
            "t": .array(t), "lat": .array(lat), "lon": .array(lon), "ele": .array(ele), "acc": .array(acc),
        ]
    }

    /// The committed points of `route`, bucket by bucket, in order, with bounded memory: its full
    /// buckets as its document names them, then the tail it holds. With `start`, the points from
    /// that index on (the buckets before it are not read).
    package func read(_ route: StoredRoute, from start: Int = 0) -> AsyncThrowingStream<[TrackPoint], any Error> {
        let layout = route.layout
        let id = route.id
        let firstSeq = max(0, start) / Self.capacity
        let tailStart = layout.buckets.count * Self.capacity
        let tail = Array(layout.tail.dropFirst(max(0, start - tailStart)))
        guard firstSeq < layout.buckets.count else {
            return AsyncThrowingStream { continuation in
                if !tail.isEmpty { continuation.yield(tail) }
                continuation.finish()
            }
        }
        let collection = self.collection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var expected = firstSeq
                    // A cursor's getMore is not retried by the driver, and a download may have sent half
                    // its body when one fails: so the read resumes by itself, with a new find from the
                    // first bucket not yet delivered (buckets are immutable once committed, so the rest
                    // is the same). One retry per failure, as the retryable-reads rule allows; a retry
                    // that delivers nothing before failing again gives up.
                    var retried = false
                    while true {
                        let stream = collection.findStream(
                            [
                                "route": .string(id),
                                "seq": ["$gte": .int(expected), "$lt": .int(layout.buckets.count)],
                            ],
                            sort: ["seq": 1], batchSize: 4)
                        do {
                            for try await batch in stream {
                                for document in batch {
                                    // Buckets of writers that never committed are not part of the route.
                                    guard let seq = document.int("seq"), seq < layout.buckets.count,
                                        document.string("writer") == layout.buckets[seq]
                                    else { continue }
                                    guard seq == expected else { throw try await missingBucket(id, expected) }
                                    expected += 1
                                    retried = false
                                    let points = try Self.points(of: document)
                                    let skip = seq == firstSeq ? start - seq * Self.capacity : 0
                                    continuation.yield(skip > 0 ? Array(points.dropFirst(skip)) : points)
                                }
                            }
                            break
                        } catch let error as MongoError {
                            guard case .unavailable = error, !retried else { throw error }
                            retried = true
                        }
                    }
                    guard expected == layout.buckets.count else { throw try await missingBucket(id, expected) }
                    if !tail.isEmpty { continuation.yield(tail) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Why a committed bucket was not found. Committed buckets are never rewritten, only removed
    /// with their route: if the route is gone, a `DELETE` ran while this read did (`404`, as for
    /// any route that is not there); otherwise the data is damaged (`500`).
    private func missingBucket(_ route: String, _ seq: Int) async throws -> any Error {
        let routes = collection.database.collection("routes")
        let exists = try await routes.findOne(["_id": .string(route)], projection: ["_id": 1]) != nil
        return exists ? StorageError.malformed("bucket", "\(route):\(seq)") : RouteNotVisible()
    }

    /// Removes the buckets `writer` stored for `route`: what a request that failed before its
    /// commit leaves. Never another writer's, which a concurrent request may be committing.
    package func deleteAll(route: String, writer: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route), "writer": .string(writer)])
    }

    /// Removes every bucket of `route`, committed or not.
    package func deleteAll(route: String) async throws {
        _ = try await collection.deleteMany(["route": .string(route)])
    }

    /// Decodes a full bucket's parallel arrays.
    package static func points(of document: BSONDocument) throws -> [TrackPoint] {
        guard let t = document.array("t"), let lat = document.array("lat"), let lon = document.array("lon"),
            lat.count == t.count, lon.count == t.count, t.count == capacity
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
