import Foundation
import RouteRankerCore
import RouteRankerModels

/// One request's worth of points going into one route: filtered by the route's accumulator,
/// packed into buckets as they come (under this request's own writer id; each full bucket is
/// stored as soon as the next one fills, so memory stays bounded for a stream of any length, and
/// the last one with the commit), and made visible all together by `commit`.
///
/// Nothing it stores before `commit` is visible: the commit is one version-guarded, journaled
/// update of the route document, which names the new full buckets and holds the open tail (see
/// `PointLayout`). A request that fails or is cut off before it leaves only buckets that no route
/// document names, and no lock.
package struct RouteIngest {
    package static let maxPoints = 1_000_000

    package let buckets: PointBuckets
    package let routes: RouteRepository
    /// The stored version this ingest builds on; 0 for a route not stored yet.
    package let baseVersion: Int
    /// The route as stored at `baseVersion`: the commit writes only what differs from it.
    private let stored: StoredRoute
    package private(set) var route: StoredRoute
    package private(set) var duplicates = 0
    package private(set) var dropped = 0
    package private(set) var accepted = 0
    /// Set once the kept points would pass `maxPoints`: the rest of the body is still read, so that
    /// a bad point anywhere is a `400`, but nothing more is written.
    package private(set) var overLimit = false

    /// The points kept since the last full bucket that are not in `route.layout`'s tail yet. The
    /// tail stays packed as stored: it is decoded only when a bucket fills, so that an append of a
    /// few points (a phone's live recording) does not decode and pack up to 999 points again.
    private var open: [TrackPoint] = []
    /// The last full bucket, not stored yet: the commit stores it (`RouteRepository.commit`), in
    /// the same queue as its update. A bucket that fills after it stores it at once, so at most one
    /// waits, and memory stays bounded.
    private var unstored: PointBuckets.Pending?
    private let writer = PointBuckets.newWriter()

    /// This request's writer id: its buckets are the ones under it.
    package var writerID: String { writer }

    /// Starts an ingest into `route`, as stored at `route.version` (0: a new route, not stored yet).
    package init(into route: StoredRoute, buckets: PointBuckets, routes: RouteRepository) {
        self.buckets = buckets
        self.routes = routes
        self.baseVersion = route.version
        self.stored = route
        self.route = route
    }

    /// Filters `points` (in the order the filter must see them) and stores every bucket they fill.
    package mutating func add(_ points: [TrackPoint]) async throws {
        guard !points.isEmpty else { return }
        let batch = route.accumulator.ingest(points)
        duplicates += batch.duplicates
        dropped += batch.dropped
        accepted += batch.accepted
        if route.accumulator.count > Self.maxPoints { overLimit = true }
        guard !overLimit else { return }
        for point in batch.kept {
            open.append(point)
            if route.layout.tailCount + open.count == PointBuckets.capacity {
                let seq = route.layout.buckets.count
                // Only the first bucket of a request can start with a stored tail.
                let full = route.layout.tailCount == 0 ? open : route.layout.tail + open
                try await unstored?.write()
                unstored = buckets.pending(route: route.id, seq: seq, writer: writer, points: full)
                route.layout.buckets.append(writer)
                route.layout.tail = []
                open.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Adds annotations sent with the points.
    package mutating func annotate(_ annotations: [Annotation]) {
        route.annotations += annotations
    }

    /// Makes everything visible at once (`state`, if given, too): a new route is inserted; an
    /// existing one is replaced only if it is still at the version this ingest started from
    /// (else `VersionConflict`: another writer got there first).
    /// `linger`: how long the commit waits for concurrent commits to share its command when it
    /// finds none (`RouteRepository.commit(_:over:stored:bucket:linger:)`).
    ///
    /// Everything that can refuse the request is checked before the write, never after: the
    /// point limit, and that the stats are finite (the answer and every list that shows the route
    /// encode them as JSON, which has no infinity; `PointValidation`'s ranges make them finite, and
    /// this check keeps an overflow from ever being stored if a path forgets them). Issue 43 #5: an
    /// append with `ele` ±1.7e308 summed its gain to infinity, the commit wrote it, and only the
    /// answer's encoding failed, a `500` after the route had changed.
    package mutating func commit(state: RouteState? = nil, linger: Duration = .zero) async throws -> StoredRoute {
        guard !overLimit else { throw PointLimitExceeded(limit: Self.maxPoints) }
        guard route.stats.isFinite else { throw StatsNotFinite() }
        if let state { route.state = state }
        route.layout.appendToTail(open)
        open = []
        route.version = baseVersion + 1
        try await routes.commit(route, over: baseVersion, stored: stored, bucket: unstored, linger: linger)
        unstored = nil
        return route
    }
}

/// The points would make a route's stats overflow to infinity (`400`): refused before the commit,
/// so nothing of the request is stored.
package struct StatsNotFinite: Error, CustomStringConvertible {
    package init() {}

    package var description: String {
        "these points make the route's statistics too large to represent (elevations must lie within "
            + "[-12000, 100000] m)"
    }
}
