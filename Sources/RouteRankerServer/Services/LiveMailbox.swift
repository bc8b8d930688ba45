import RouteRankerModels
import RouteRankerStorage
import Synchronization

/// What has happened to a followed route since its follower last looked, coalesced: however often
/// the route changes while the follower is busy writing, this holds one route record and three
/// flags. That is what bounds a follower's memory on the server whatever the writer does.
struct LiveNews: Sendable {
    /// The newest committed state of the route the change stream reported.
    var latest: StoredRoute?
    /// The route was deleted.
    var deleted = false
    /// Something that can change who may see the route, or how (a share or link revoked, the
    /// owner's zones, a feed restart), happened: the follower checks its access again.
    var recheck = false
    /// The server is shutting down: the follower ends its stream.
    var shutdown = false

    var isEmpty: Bool { latest == nil && !deleted && !recheck && !shutdown }

    mutating func merge(_ other: LiveNews) {
        // `>=`: events come in commit order, and a change that leaves the version alone (a reader
        // removed by a revocation) must replace an append of that version posted before it.
        if let record = other.latest, record.version >= (latest?.version ?? -1) { latest = record }
        deleted = deleted || other.deleted
        recheck = recheck || other.recheck
        shutdown = shutdown || other.shutdown
    }
}

/// One follower's subscription: the hub posts news from the change stream's thread, the follower
/// takes it from its own task.
final class LiveMailbox: Sendable {
    /// The followed route and its owner.
    let route: String
    let owner: String
    /// The share link the follower came through, if any.
    let link: String?
    /// The following user, nil for a link holder.
    let viewer: String?

    private struct State {
        var news = LiveNews()
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    init(route: String, owner: String, link: String?, viewer: String?) {
        self.route = route
        self.owner = owner
        self.link = link
        self.viewer = viewer
    }

    /// Adds `news`; wakes the follower if it waits. Never blocks for long (called on the feed's thread).
    func post(_ news: LiveNews) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.news.merge(news)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The news gathered so far, waiting up to `timeout` on `clock` for some; empty news after the
    /// timeout.
    func take(timeout: Duration, on clock: WallClock = .system) async -> LiveNews {
        if let news = takeIfAny() { return news }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForNews() }
            group.addTask { try? await clock.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return takeIfAny() ?? LiveNews()
    }

    private func takeIfAny() -> LiveNews? {
        state.withLock { state in
            guard !state.news.isEmpty else { return nil }
            defer { state.news = LiveNews() }
            return state.news
        }
    }

    /// Returns once there is news, or when the waiting task is cancelled.
    private func waitForNews() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if !state.news.isEmpty || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
