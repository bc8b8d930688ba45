import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle

/// What a follower of a live route is sent (API.md "Live following").
enum LiveEvent: Sendable {
    /// Visible points `from`, `from + 1`, …; `id` is the number of points visible after them.
    case points(id: Int, from: Int, points: [TrackPoint], stats: RouteStats)
    /// The route is finished: its summary as the follower sees it. The stream ends after it.
    case finished(RouteSummary)
    /// The route was deleted or is no longer visible to the follower. The stream ends after it.
    case gone
    /// Nothing happened for a while (a comment line keeps proxies from closing the connection).
    case keepAlive
}

/// One follower of one route: sends what it has not seen yet, then every committed change as the
/// hub reports it, until the route is finished, gone, or the server shuts down.
///
/// Access is decided by `access`, the caller's reading through `RouteAccess` (owner or share, or
/// link), when the stream opens and again whenever something that can change it is reported (a
/// share or link revoked, the owner's account changed, the feed restarted); a deletion is reported
/// directly, every changed route document carries its readers (`admits`, `RouteAccess`'s rule
/// without a round trip), and a link's expiry is checked on every event and keep-alive. Those are
/// the only ways
/// a route stops being visible, so this is the visibility check of every event without a database
/// round trip per event and follower.
struct LiveFollower: Sendable {
    /// The longest silence on a stream: a keep-alive comment is sent after it (API.md: ≤ 15 s).
    static let keepAlive: Duration = .seconds(15)
    /// Catch-up and large appends are sent in events of at most this many points.
    static let maxPointsPerEvent = 1000

    let hub: LiveHub
    let buckets: PointBuckets
    let viewer: RouteViewer
    let clock: WallClock
    /// The route and the lenses the follower sees it through, if they may still read it, else nil.
    let access: @Sendable () async throws -> (route: StoredRoute, lenses: RouteAccess.Lenses)?
    /// Whether a later version of the route document, as the hub reports it, still lets the
    /// follower read it (`RouteAccess.Reading.admits`; always for a link holder, whose access is
    /// the link's).
    let admits: @Sendable (StoredRoute) -> Bool
    /// The following user (nil for a link holder) and the link they came through.
    let viewerID: String?
    let link: (id: String, expiresAt: Date)?

    /// Follows `route` from visible index `from`, handing every event to `emit` (which may suspend:
    /// meanwhile the route's changes coalesce in the mailbox).
    func run(_ route: StoredRoute, from: Int, emit: (LiveEvent) async throws -> Void) async throws {
        let mailbox = hub.subscribe(route: route.id, owner: route.owner, link: link?.id, viewer: viewerID)
        defer { hub.unsubscribe(mailbox) }
        // On SIGTERM the stream ends cleanly, so the server's graceful shutdown is not held up by it;
        // the client reconnects (to another server) with `Last-Event-ID`.
        try await withGracefulShutdownHandler {
            try await follow(route, from: from, mailbox: mailbox, emit: emit)
        } onGracefulShutdown: {
            mailbox.post(LiveNews(shutdown: true))
        }
    }

    private func follow(
        _ route: StoredRoute, from: Int, mailbox: LiveMailbox, emit: (LiveEvent) async throws -> Void
    ) async throws {
        // Read again after subscribing, so nothing committed in between is missed.
        guard let (opened, lenses) = try await access() else { return try await emit(.gone) }
        var current = opened
        let lens = lenses.privacy
        var position = LivePosition(from: from, lens: lens)
        while true {
            try await position.send(current, buckets: buckets, emit: emit)
            if current.state == .finished {
                return try await emit(.finished(try await viewer.summary(current, lens: lens)))
            }
            let news = await mailbox.take(timeout: waitLimit(), on: clock)
            if news.shutdown { return }
            if news.deleted || isExpired { return try await emit(.gone) }
            // A revocation removes the share, which asks for the recheck below, then the reader from
            // the route document (`ShareRepository`), which this change shows even if the recheck
            // ran between the two.
            if let latest = news.latest, !admits(latest) {
                return try await emit(.gone)
            }
            if news.recheck {
                guard let (fresh, freshLenses) = try await access() else { return try await emit(.gone) }
                // A changed view (the owner's zones) would renumber the points: end the stream, and
                // the client's reconnection gets the new view.
                guard freshLenses.privacy.tag == lens.tag else { return }
                if fresh.version > current.version { current = fresh }
            }
            if let latest = news.latest, latest.version > current.version { current = latest }
            if news.isEmpty { try await emit(.keepAlive) }
        }
    }

    private var isExpired: Bool { link.map { $0.expiresAt <= clock.now } ?? false }

    /// Until the next keep-alive, or the link's expiry if sooner.
    private func waitLimit() -> Duration {
        guard let link else { return Self.keepAlive }
        // A stored expiry may lie ±292 million years away: milliseconds past Int64 would trap.
        let seconds = link.expiresAt.timeIntervalSince(clock.now)
        let left = (seconds * 1000).clampedInt64(in: 0...Int64.max - 1, rounding: .down)
        return min(Self.keepAlive, .milliseconds(left + 1))
    }
}

/// How far a follower has got: raw points read, visible points counted, and (under privacy zones)
/// the visible start, end and box so far, so that each event's stats are those of the view.
struct LivePosition: Sendable {
    /// The first visible index the follower wants.
    let from: Int
    let lens: RouteViewer.Lens
    /// Committed points consumed (sent or skipped).
    private(set) var raw = 0
    /// Visible points among them.
    private(set) var visible = 0
    private var extent = VisibleExtent()

    init(from: Int, lens: RouteViewer.Lens) {
        self.from = max(0, from)
        self.lens = lens
        // Without zones every point is visible: start reading at `from` itself.
        if lens.zones.isEmpty {
            raw = self.from
            visible = self.from
        }
    }

    /// Sends the points of `route` the follower has not had, in events of bounded size.
    mutating func send(
        _ route: StoredRoute, buckets: PointBuckets, emit: (LiveEvent) async throws -> Void
    ) async throws {
        guard route.pointCount > raw else { return }
        var pending: [TrackPoint] = []
        var pendingFrom = visible
        for try await chunk in buckets.read(route, from: raw) {
            for point in chunk {
                raw += 1
                if !lens.zones.isEmpty && !extent.add(point, hiddenBy: lens.zones) { continue }
                visible += 1
                guard visible > from else {
                    pendingFrom = visible
                    continue
                }
                pending.append(point)
                if pending.count == LiveFollower.maxPointsPerEvent {
                    try await flush(&pending, from: &pendingFrom, route: route, emit: emit)
                }
            }
        }
        try await flush(&pending, from: &pendingFrom, route: route, emit: emit)
    }

    private func flush(
        _ pending: inout [TrackPoint], from: inout Int, route: StoredRoute,
        emit: (LiveEvent) async throws -> Void
    ) async throws {
        guard !pending.isEmpty else { return }
        let stats = lens.zones.isEmpty ? route.stats : extent.apply(to: route.stats)
        try await emit(.points(id: from + pending.count, from: from, points: pending, stats: stats))
        from += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}
