import Foundation
import RouteRankerCore

/// Whether a route still takes appends.
package enum RouteState: String, Sendable, Codable {
    case recording, finished
}

/// A route: the summary, and the running state of its statistics, so that an append reads this
/// and the batch, never the route's earlier points. Where its points are stored is storage's
/// business (`StoredRoute` in RouteRankerStorage), not the record's.
package struct RouteRecord: Sendable, Equatable {
    package var id: String
    package var owner: String
    package var name: String
    package var activity: Activity
    package var state: RouteState
    package var createdAt: Date
    package var annotations: [Annotation]
    /// The incremental statistics; `accumulator.stats` is what clients see.
    package var accumulator: StatsAccumulator
    /// Bumped by every change of the route (append, finish, rename, activity): the ETag's source,
    /// and the guard that keeps two writers from both committing on the same base.
    package var version: Int
    /// The users the route is shared with, in the order it was shared with them: the membership
    /// test of visibility (`RouteReaders.isReadable(by:)`). Kept by `ShareRepository` and never written by a
    /// commit, which sets only the fields it changed.
    package var readers: [String] = []
    /// Whether `annotations` were read. Lists read routes without them (up to 1,000 annotations of
    /// 1,000 characters each: a megabyte a route, two hundred routes a page), so their summaries
    /// leave `annotations` out; a commit of such a record leaves the stored ones as they are.
    package var annotationsLoaded = true

    package init(
        id: String, owner: String, name: String, activity: Activity, state: RouteState, createdAt: Date,
        annotations: [Annotation], accumulator: StatsAccumulator, version: Int, readers: [String] = []
    ) {
        self.id = id
        self.owner = owner
        self.name = name
        self.activity = activity
        self.state = state
        self.createdAt = createdAt
        self.annotations = annotations
        self.accumulator = accumulator
        self.version = version
        self.readers = readers
    }

    /// Whom the route is shared with, newest share first (the summary's `shared_with`).
    package var recipients: [String] { readers.reversed() }

    /// Committed (visible) points: readers never look past this many.
    package var pointCount: Int { accumulator.count }

    package var stats: RouteStats { accumulator.stats }

    /// The time of the first kept point.
    package var startedAt: Date? { accumulator.first.map { Date(timeIntervalSince1970: $0.t) } }

    /// The time of the last kept point, once the route is finished.
    package var endedAt: Date? {
        state == .finished ? accumulator.last.map { Date(timeIntervalSince1970: $0.t) } : nil
    }
}

/// Route ids are ObjectId hex strings; anything else cannot name a route.
package enum RouteID {
    package static func isPlausible(_ id: String) -> Bool {
        id.utf8.count == 24 && id.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
