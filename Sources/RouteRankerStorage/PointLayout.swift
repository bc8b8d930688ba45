import RouteRankerCore

/// Where a route's committed points are: the full buckets in `points`, each named by the request
/// that wrote it, and the open tail of fewer than 1000 points, kept in the route document itself.
///
/// This is what makes a single version-guarded update of the route document the commit point of
/// an append (no multi-document transaction, no lock left behind by a crashed writer): a writer
/// first stores the buckets it fills under its own id, which no other writer uses, and then
/// commits the route document that names them. Buckets of a writer that failed or lost the race
/// are named by no route document, so no reader ever sees them.
package struct PointLayout: Sendable, Equatable {
    /// Points per full bucket.
    package static let bucketCapacity = 1_000

    /// `buckets[seq]` is the writer id of full bucket `seq` (points `[1000·seq, 1000·seq + 1000)`).
    package var buckets: [String] = []
    /// The committed points after the last full bucket, decoded on each read: the layout keeps
    /// them packed as stored (`PackedTail`), since most reads of a route never look at them.
    package var tail: [TrackPoint] {
        get { packedTail.points }
        set { packedTail = PackedTail(newValue) }
    }
    /// The tail as stored: packed (`PackedTail`).
    package private(set) var packedTail = PackedTail()

    /// How many points the tail holds.
    package var tailCount: Int { packedTail.count }

    /// Adds `points` to the tail as packed bytes, without decoding the points already there (see
    /// `RouteIngest`: an append that fills no bucket never decodes the tail).
    package mutating func appendToTail(_ points: [TrackPoint]) {
        packedTail.append(points)
    }

    /// How many points the layout holds.
    package var count: Int { buckets.count * Self.bucketCapacity + packedTail.count }

    package init(buckets: [String] = [], tail: [TrackPoint] = []) {
        self.buckets = buckets
        self.packedTail = PackedTail(tail)
    }

    package init(buckets: [String], packedTail: PackedTail) {
        self.buckets = buckets
        self.packedTail = packedTail
    }
}
