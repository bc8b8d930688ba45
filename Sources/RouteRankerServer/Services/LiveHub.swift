import Foundation
import Logging
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle
import Synchronization

/// The live hub: the process's one change stream (`RouteChangeFeed`), fanned out to the followers
/// connected to this process, by route. Run it as a lifecycle service; on graceful shutdown it tells
/// every follower to end its stream, then stops the feed.
///
/// The feed is open only while someone here follows a route (and for `linger` after the last one
/// leaves, so that a reload does not reopen it). A database-wide stream makes the database read
/// every write of every collection, points included: on SecantusDB that was about a third of its
/// CPU per bulk append, paid even with nobody watching. Opening it is safe at any moment: a stream
/// opened afresh announces `.resynchronize` once the server has accepted it, and every follower
/// then reads its route again, so nothing committed between a follower's first read and the
/// stream's start is missed.
///
/// Fan-out runs on the feed's thread and only posts to mailboxes (a lock and a merge each), so one
/// slow follower never delays the others or the feed.
final class LiveHub: Service, Sendable {
    private struct FeedState {
        /// Set by `run()`: only a running service opens a feed (and stops it at shutdown).
        var running = false
        var shutDown = false
        var feed: RouteChangeFeed?
        /// Bumped by every subscription, so that a stop scheduled before it does nothing.
        var generation = 0
    }

    private let followers: LiveFollowers
    private let feeds: RouteChangeFeeds
    private let logger: Logger
    private let linger: Duration
    /// Waits out `linger` (the clock's sleep; tests pass one they advance by hand).
    private let sleep: @Sendable (Duration) async -> Void
    private let feedState = Mutex(FeedState())

    init(
        feeds: RouteChangeFeeds, logger: Logger, linger: Duration = .seconds(30),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.sleep = sleep
        self.followers = LiveFollowers()
        self.feeds = feeds
        self.logger = logger
        self.linger = linger
    }

    /// Registers a follower of `route`, opening the feed if it is closed; pair with `unsubscribe`.
    func subscribe(route: String, owner: String, link: String?, viewer: String?) -> LiveMailbox {
        let mailbox = LiveMailbox(route: route, owner: owner, link: link, viewer: viewer)
        followers.add(mailbox)
        feedState.withLock { state in
            state.generation += 1
            openFeed(&state)
        }
        return mailbox
    }

    /// Opens the feed if the service runs and it is closed.
    private func openFeed(_ state: inout FeedState) {
        guard state.running, !state.shutDown, state.feed == nil else { return }
        let followers = self.followers
        let feed = feeds.feed(logger: logger, isFollowed: followers.isFollowed) {
            followers.deliver($0)
        }
        feed.start()  // starts a thread; the stream opens there
        state.feed = feed
    }

    /// Removes a follower; after the last one, the feed closes `linger` later unless someone follows
    /// again. Returns the task that waits for that (nil when followers remain), for tests to await.
    @discardableResult
    func unsubscribe(_ mailbox: LiveMailbox) -> Task<Void, Never>? {
        followers.remove(mailbox)
        guard followers.count == 0 else { return nil }
        let generation = feedState.withLock { $0.generation }
        let (linger, sleep) = (self.linger, self.sleep)
        return Task { [self] in
            await sleep(linger)
            closeFeedIfIdle(since: generation)
        }
    }

    /// How many followers this process serves (for metrics and tests).
    var followerCount: Int { followers.count }

    /// Whether the change stream is open (for tests).
    var isWatching: Bool { feedState.withLock { $0.feed != nil } }

    /// Whether `run()` has started (for tests).
    var isRunning: Bool { feedState.withLock { $0.running } }

    func run() async throws {
        feedState.withLock { state in
            state.running = true
            // Someone may have followed before the service started.
            if followers.count > 0 { openFeed(&state) }
        }
        try? await gracefulShutdown()
        followers.shutDown()
        let feed = feedState.withLock { state in
            state.shutDown = true
            defer { state.feed = nil }
            return state.feed
        }
        if let feed { await Self.stop(feed) }
        logger.debug("live hub stopped")
    }

    private func closeFeedIfIdle(since generation: Int) {
        let feed = feedState.withLock { state -> RouteChangeFeed? in
            guard state.generation == generation, followers.count == 0 else { return nil }
            defer { state.feed = nil }
            return state.feed
        }
        guard let feed else { return }
        Task { await Self.stop(feed) }
    }

    /// `stop()` blocks for up to one `getMore` wait: on a thread of its own, not the executor's.
    private static func stop(_ feed: RouteChangeFeed) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                feed.stop()
                continuation.resume()
            }.start()
        }
    }
}

/// The followers by route, and how each `RouteChange` reaches them.
final class LiveFollowers: Sendable {
    private struct State {
        var byRoute: [String: [ObjectIdentifier: LiveMailbox]] = [:]
        var count = 0
        var shutDown = false
    }
    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    /// Whether anyone in this process follows `route` (so its changes are worth decoding).
    @Sendable func isFollowed(_ route: String) -> Bool { state.withLock { $0.byRoute[route] != nil } }

    func add(_ mailbox: LiveMailbox) {
        let shutDown = state.withLock { state in
            state.byRoute[mailbox.route, default: [:]][ObjectIdentifier(mailbox)] = mailbox
            state.count += 1
            return state.shutDown
        }
        if shutDown { mailbox.post(LiveNews(shutdown: true)) }
    }

    func remove(_ mailbox: LiveMailbox) {
        state.withLock { state in
            guard state.byRoute[mailbox.route]?.removeValue(forKey: ObjectIdentifier(mailbox)) != nil else { return }
            state.count -= 1
            if state.byRoute[mailbox.route]?.isEmpty == true { state.byRoute[mailbox.route] = nil }
        }
    }

    func shutDown() {
        let all = state.withLock { state in
            state.shutDown = true
            return state.byRoute.values.flatMap(\.values)
        }
        for mailbox in all { mailbox.post(LiveNews(shutdown: true)) }
    }

    /// Posts a change to the mailboxes it concerns (called on the feed's thread, in commit order).
    func deliver(_ change: RouteChange) {
        switch change {
        case .committed(let route):
            post(LiveNews(latest: route), route: route.id)
        case .deleted(let route):
            post(LiveNews(deleted: true), route: route)
        case .shareRevoked(let route, let user):
            post(LiveNews(recheck: true), route: route) { $0.viewer == user }
        case .linkRevoked(let link):
            post(LiveNews(recheck: true)) { $0.link == link }
        case .userChanged(let user):
            // The owner's zones, or a follower's own account: either may change what they see.
            post(LiveNews(recheck: true)) { $0.owner == user || $0.viewer == user }
        case .resynchronize:
            post(LiveNews(recheck: true))
        }
    }

    /// Posts `news` to the followers of `route` (of every route when nil) that `isConcerned` picks.
    private func post(
        _ news: LiveNews, route: String? = nil, to isConcerned: (LiveMailbox) -> Bool = { _ in true }
    ) {
        let targets: [LiveMailbox] = state.withLock { state in
            if let route { return state.byRoute[route].map { Array($0.values) } ?? [] }
            return state.byRoute.values.flatMap(\.values)
        }
        for mailbox in targets where isConcerned(mailbox) { mailbox.post(news) }
    }
}
