import Foundation
import Logging
import Mongo
import ServiceLifecycle
import Synchronization

/// The live hub: the process's one change stream (`RouteChangeFeed`), fanned out to the followers
/// connected to this process, by route. Run it as a lifecycle service: it starts the feed, and on
/// graceful shutdown tells every follower to end its stream, then stops the feed.
///
/// Fan-out runs on the feed's thread and only posts to mailboxes (a lock and a merge each), so one
/// slow follower never delays the others or the feed.
final class LiveHub: Service, Sendable {
    private let followers: LiveFollowers
    private let feed: RouteChangeFeed
    private let logger: Logger

    init(database: MongoDatabase, logger: Logger) {
        let followers = LiveFollowers()
        self.followers = followers
        self.logger = logger
        feed = RouteChangeFeed(database: database, logger: logger, isFollowed: followers.isFollowed) {
            followers.deliver($0)
        }
    }

    /// Registers a follower of `route`; pair with `unsubscribe`.
    func subscribe(route: String, owner: String, link: String?, viewer: String?) -> LiveMailbox {
        let mailbox = LiveMailbox(route: route, owner: owner, link: link, viewer: viewer)
        followers.add(mailbox)
        return mailbox
    }

    func unsubscribe(_ mailbox: LiveMailbox) {
        followers.remove(mailbox)
    }

    /// How many followers this process serves (for metrics and tests).
    var followerCount: Int { followers.count }

    func run() async throws {
        feed.start()
        try? await gracefulShutdown()
        followers.shutDown()
        // `stop()` blocks for up to one `getMore` wait: on a thread of its own, not the executor's.
        let feed = self.feed
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                feed.stop()
                continuation.resume()
            }.start()
        }
        logger.debug("live hub stopped")
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
