import Foundation
import Mongo
import RouteRankerCore

/// The reads a hot request starts with: the caller's user document and the route (or a page of
/// the inbox), the same queries as the repositories make, by index or `_id`. Nothing is cached:
/// every request reads the caller and the route afresh, so a rotated token, a revoked share or a
/// deleted route stops working at once.
///
/// Each database round trip costs this process a thread's sleep and wake-up, so the reads are laid
/// out to need few: a token names its user (`UserToken`) and a route lists its readers
/// (`RouteRecord.readers`), so a friend's route read is the route, then the caller and the owner
/// together by `_id`. Both `_id` reads are coalesced with the same reads of concurrent requests
/// (`MongoCollection.documents(ids:)`): alone, a request makes its two round trips; under load,
/// one query of each serves every request that asked while the one before it was under way. What
/// is read for a token that then fails its check is dropped unseen (`Authenticator.accept`), and
/// routes are decoded only after that check (`StoredRoute`).
struct RequestReads: Sendable {
    let database: MongoDatabase

    init(users: UserRepository) {
        database = users.collection.database
    }

    init(routes: RouteRepository) {
        database = routes.collection.database
    }

    /// What `route(_:token:)` found.
    struct RouteLookup: Sendable {
        /// The user the token names or whose digest matched, if any; the caller must still check
        /// the token against it.
        var user: UserRecord?
        /// The route, if it exists.
        var route: StoredRoute?
        /// For a caller who is not the owner: the owner's privacy zones and their version.
        var ownerPrivacy: (zones: [PrivacyZone], version: Int)?
    }

    /// The caller of `token` and the route `id`, with its owner's zones when the caller is someone
    /// else: for a token that names its user, the route by `_id`, then the caller and the owner by
    /// `_id`, each read coalesced with the same reads of concurrent requests
    /// (`MongoCollection.documents(ids:)`): two round trips for a request alone, a share of two under
    /// load. An older token takes three, in one pool job.
    func route(_ id: String, token: String) async throws -> RouteLookup {
        switch UserToken(token) {
        case .malformed:
            return RouteLookup()
        case .named(let caller):
            var found = RouteLookup()
            if RouteID.isPlausible(id) {
                found.route = try await database.collection("routes").documents(ids: [id])[id].map(StoredRoute.init)
            }
            let owner = found.route?.owner
            let ids = [caller] + (owner.map { $0 == caller ? [] : [$0] } ?? [])
            let users = try await database.collection("users").documents(ids: ids)
            found.user = users[caller].flatMap(UserRepository.record)
            if let owner, owner != caller { found.ownerPrivacy = users[owner].map(Self.privacy) }
            return found
        case .unnamed:
            return try await database.job { job in
                var found = RouteLookup()
                guard let user = try Self.user(tokenHash: Secret.hash(token), job) else { return found }
                found.user = user
                found.route = try Self.route(id, job)
                guard let owner = found.route?.owner, owner != user.id else { return found }
                found.ownerPrivacy = try job.collection("users").findOne(
                    ["_id": .string(owner)], projection: ["privacy_zones": 1, "zones_version": 1]
                ).map(Self.privacy)
                return found
            }
        }
    }

    /// What `inbox(token:after:limit:)` found.
    struct InboxLookup: Sendable {
        /// As in `RouteLookup`.
        var user: UserRecord?
        /// The page of shares to the caller, newest first (up to `limit`).
        var shares: [ShareRecord] = []
        /// The routes of those shares that exist, by id.
        var routes: [String: StoredRoute] = [:]
        /// Their owners' names, zones and zones version, by id.
        var owners: [String: (name: String, zones: [PrivacyZone], version: Int)] = [:]
        /// How many shares the caller has in all.
        var total = 0
    }

    /// The caller of `token`, a page of their inbox (`ShareRepository.inbox`), its routes, their
    /// owners (names and zones, read with the caller when the token names its user), and the
    /// inbox's size: the page and the count in one pool job, then the routes and the users by `_id`,
    /// each coalesced with the same reads of concurrent requests (`MongoCollection.documents(ids:)`):
    /// four round trips for a request alone (five for an older token), fewer under load, and one
    /// fewer when the first page holds the whole inbox (`ListTotal.fromFirstPage`).
    func inbox(token: String, after: (Date, String)?, limit: Int) async throws -> InboxLookup {
        let named = UserToken(token)
        if named == .malformed { return InboxLookup() }
        var found = try await database.job { job in
            var found = InboxLookup()
            let caller: String
            switch named {
            case .named(let user): caller = user
            case .unnamed, .malformed:
                guard let user = try Self.user(tokenHash: Secret.hash(token), job) else { return found }
                found.user = user
                caller = user.id
            }
            let shares = job.collection("shares")
            let page = try shares.find(
                ShareRepository.inboxFilter(of: caller, after: after), sort: ["shared_at": -1, "_id": 1], limit: limit
            )
            found.shares = page.compactMap(ShareRepository.record)
            // Most inboxes fit on their first page: then the page is the count.
            found.total =
                try ListTotal.fromFirstPage(isFirst: after == nil, read: page.count, asked: limit)
                ?? shares.count(["to": .string(caller)])
            return found
        }
        let caller: String
        switch named {
        case .named(let user): caller = user
        case .unnamed, .malformed:
            guard let user = found.user else { return found }
            caller = user.id
        }
        // The coalesced reads may also return documents other requests asked for: only this
        // page's are taken.
        let routeIDs = Array(Set(found.shares.map(\.route)).filter(RouteID.isPlausible))
        let routes = try await database.collection("routes").documents(ids: routeIDs)
        for id in routeIDs {
            if let document = routes[id] { found.routes[id] = StoredRoute(document: document) }
        }
        var userIDs = Set(found.shares.map(\.owner))
        if found.user == nil { userIDs.insert(caller) }
        let users = try await database.collection("users").documents(ids: Array(userIDs))
        for id in userIDs {
            guard let document = users[id] else { continue }
            if id == caller, found.user == nil { found.user = UserRepository.record(document) }
            guard let name = document.string("name") else { continue }
            let privacy = Self.privacy(document)
            found.owners[id] = (name, privacy.zones, privacy.version)
        }
        return found
    }

    private static func user(tokenHash: Data, _ job: MongoJob) throws -> UserRecord? {
        try job.collection("users").findOne(["token_hash": .binary(subtype: 0, Array(tokenHash))])
            .flatMap(UserRepository.record)
    }

    private static func route(_ id: String, _ job: MongoJob) throws -> StoredRoute? {
        guard RouteID.isPlausible(id) else { return nil }
        return try job.collection("routes").findOne(["_id": .string(id)]).map(StoredRoute.init(document:))
    }

    private static func privacy(_ document: BSONDocument) -> (zones: [PrivacyZone], version: Int) {
        (UserRepository.zones(document), document.int("zones_version") ?? 0)
    }
}

/// A route document read before the caller's token was checked, decoded (`record()`) only once it
/// has been: a request with a wrong token costs no decoding (a route's open tail can hold 999
/// points) and cannot fail on it.
struct StoredRoute: Sendable {
    fileprivate let document: BSONDocument

    /// The owner, which deciding what else to read needs before the check.
    var owner: String? { document.string("owner") }

    func record() throws -> RouteRecord { try RouteRecord(document: document) }
}
