import Foundation
import Mongo
import RouteRankerCore

/// The reads a hot request starts with, run as one pool job: the same queries as the repositories
/// make (by index or `_id`), one after the other on one client, but one trip to a pool thread and
/// back instead of one per query — the thread hand-offs (two wake-ups each) were the largest cost
/// of a friend's route read in the profile. Nothing is cached: every request reads the caller's
/// user document and the route afresh, so a rotated token, a revoked share or a deleted route stops
/// working at once.
///
/// Each database round trip costs this process about 0.1 ms of CPU, so the reads are laid out to
/// need few: a token names its user (`UserToken`) and a route lists its readers
/// (`RouteRecord.readers`), so a friend's route read is the route, then the caller and the owner
/// together by `_id` — two trips. What is read for a token that then fails its check is dropped
/// unseen (`Authenticator.accept`), and routes are decoded only after that check (`StoredRoute`).
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
    /// else: two round trips for a token that names its user, three for an older one.
    func route(_ id: String, token: String) async throws -> RouteLookup {
        let named = UserToken(token)
        if named == .malformed { return RouteLookup() }
        return try await database.job { job in
            var found = RouteLookup()
            let users = job.collection("users")
            switch named {
            case .named(let caller):
                found.route = try Self.route(id, job)
                let owner = found.route?.owner
                let ids = [caller] + (owner.map { $0 == caller ? [] : [$0] } ?? [])
                // One id (the owner's own route): an equality, which every database answers from the index.
                let filter: BSONDocument =
                    ids.count == 1 ? ["_id": .string(caller)] : ["_id": ["$in": .array(ids.map { .string($0) })]]
                for document in try users.find(filter) {
                    guard let userID = document.string("_id") else { continue }
                    if userID == caller { found.user = UserRepository.record(document) }
                    if userID == owner, userID != caller { found.ownerPrivacy = Self.privacy(document) }
                }
            case .unnamed, .malformed:
                guard let user = try Self.user(tokenHash: Secret.hash(token), job) else { return found }
                found.user = user
                found.route = try Self.route(id, job)
                guard let owner = found.route?.owner, owner != user.id else { return found }
                found.ownerPrivacy = try users.findOne(
                    ["_id": .string(owner)], projection: ["privacy_zones": 1, "zones_version": 1]
                ).map(Self.privacy)
            }
            return found
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
    /// owners (names and zones, in the caller's query when the token names its user), and the
    /// inbox's size: four round trips (five for an older token).
    func inbox(token: String, after: (Date, String)?, limit: Int) async throws -> InboxLookup {
        let named = UserToken(token)
        if named == .malformed { return InboxLookup() }
        return try await database.job { job in
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
            found.shares = try shares.find(
                ShareRepository.inboxFilter(of: caller, after: after), sort: ["shared_at": -1, "_id": 1], limit: limit
            ).compactMap(ShareRepository.record)
            let ids = Set(found.shares.map(\.route)).filter(RouteID.isPlausible)
            if !ids.isEmpty {
                for document in try job.collection("routes").find(["_id": ["$in": .array(ids.map { .string($0) })]]) {
                    guard let id = document.string("_id") else { continue }
                    found.routes[id] = StoredRoute(document: document)
                }
            }
            var users = Set(found.shares.map(\.owner))
            if found.user == nil { users.insert(caller) }
            if !users.isEmpty {
                for document in try job.collection("users").find(["_id": ["$in": .array(users.map { .string($0) })]]) {
                    guard let id = document.string("_id") else { continue }
                    if id == caller, found.user == nil { found.user = UserRepository.record(document) }
                    guard let name = document.string("name") else { continue }
                    let privacy = Self.privacy(document)
                    found.owners[id] = (name, privacy.zones, privacy.version)
                }
            }
            found.total = try shares.count(["to": .string(caller)])
            return found
        }
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
