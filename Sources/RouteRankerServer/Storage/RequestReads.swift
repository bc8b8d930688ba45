import Foundation
import Mongo
import RouteRankerCore

/// The reads a hot request starts with, run as one pool job: the same queries as the repositories
/// make (by index or `_id`), one after the other on one client, but one trip to a pool thread and
/// back instead of one per query — the thread hand-offs (two wake-ups each) were the largest cost
/// of a friend's route read in the profile. Nothing is cached: every request reads the caller's
/// token, the route and the share afresh, so a rotated token, a revoked share or a deleted route
/// stops working at once.
struct RequestReads: Sendable {
    let database: MongoDatabase

    init(users: UserRepository) {
        database = users.collection.database
    }

    init(routes: RouteRepository) {
        database = routes.collection.database
    }

    /// What `route(_:tokenHash:recipients:)` found.
    struct RouteLookup: Sendable {
        /// The user whose token digest matched, if any (nothing else is read without one).
        var user: UserRecord?
        /// The route, if it exists.
        var route: RouteRecord?
        /// For a caller who is not the owner: whether the route is shared with them.
        var shared = false
        /// For a caller who is not the owner: the owner's privacy zones and their version.
        var ownerPrivacy: (zones: [PrivacyZone], version: Int)?
        /// For the owner, when asked: the recipients of the route's shares, newest first.
        var recipients: [String]?
    }

    /// The caller by token digest, then the route `id`, then — for a caller who does not own it —
    /// the share to them and the owner's zones, or — for the owner, with `recipients` — its shares.
    func route(_ id: String, tokenHash: Data, recipients: Bool) async throws -> RouteLookup {
        try await database.job { job in
            var found = RouteLookup()
            guard let user = try Self.user(tokenHash, job) else { return found }
            found.user = user
            guard RouteID.isPlausible(id),
                let route = try job.collection("routes").findOne(["_id": .string(id)]).map(RouteRecord.init(document:))
            else { return found }
            found.route = route
            let shares = job.collection("shares")
            if route.owner == user.id {
                if recipients {
                    found.recipients = try shares.find(["route": .string(id)], sort: ["shared_at": -1, "_id": 1])
                        .compactMap(ShareRepository.record).map(\.to)
                }
                return found
            }
            found.shared = try shares.findOne(["_id": .string(ShareRepository.id(route: id, to: user.id))]) != nil
            guard found.shared else { return found }
            found.ownerPrivacy = try Self.privacy([route.owner], job)[route.owner]
            return found
        }
    }

    /// What `inbox(tokenHash:after:limit:)` found.
    struct InboxLookup: Sendable {
        var user: UserRecord?
        /// The page of shares to the caller, newest first (up to `limit`).
        var shares: [ShareRecord] = []
        /// The routes of those shares that exist, by id.
        var routes: [String: RouteRecord] = [:]
        /// Their owners' names, zones and zones version, by id.
        var owners: [String: (name: String, zones: [PrivacyZone], version: Int)] = [:]
        /// How many shares the caller has in all.
        var total = 0
    }

    /// The caller by token digest, a page of their inbox (`ShareRepository.inbox`), its routes, their
    /// owners (names and zones in one query), and the inbox's size.
    func inbox(tokenHash: Data, after: (Date, String)?, limit: Int) async throws -> InboxLookup {
        try await database.job { job in
            var found = InboxLookup()
            guard let user = try Self.user(tokenHash, job) else { return found }
            found.user = user
            let shares = job.collection("shares")
            found.shares = try shares.find(
                ShareRepository.inboxFilter(of: user.id, after: after), sort: ["shared_at": -1, "_id": 1], limit: limit
            ).compactMap(ShareRepository.record)
            let ids = Set(found.shares.map(\.route)).filter(RouteID.isPlausible)
            if !ids.isEmpty {
                for document in try job.collection("routes").find(["_id": ["$in": .array(ids.map { .string($0) })]]) {
                    let route = try RouteRecord(document: document)
                    found.routes[route.id] = route
                }
            }
            let owners = Set(found.shares.map(\.owner))
            if !owners.isEmpty {
                let documents = try job.collection("users").find(
                    ["_id": ["$in": .array(owners.map { .string($0) })]],
                    projection: ["name": 1, "privacy_zones": 1, "zones_version": 1])
                for document in documents {
                    guard let id = document.string("_id"), let name = document.string("name") else { continue }
                    found.owners[id] = (name, UserRepository.zones(document), document.int("zones_version") ?? 0)
                }
            }
            found.total = try shares.count(["to": .string(user.id)])
            return found
        }
    }

    private static func user(_ tokenHash: Data, _ job: MongoJob) throws -> UserRecord? {
        try job.collection("users").findOne(["token_hash": .binary(subtype: 0, Array(tokenHash))])
            .flatMap(UserRepository.record)
    }

    private static func privacy(_ ids: [String], _ job: MongoJob) throws
        -> [String: (zones: [PrivacyZone], version: Int)]
    {
        let documents = try job.collection("users").find(
            ["_id": ["$in": .array(Set(ids).map { .string($0) })]],
            projection: ["privacy_zones": 1, "zones_version": 1])
        var found: [String: (zones: [PrivacyZone], version: Int)] = [:]
        for document in documents {
            guard let id = document.string("_id") else { continue }
            found[id] = (UserRepository.zones(document), document.int("zones_version") ?? 0)
        }
        return found
    }
}
