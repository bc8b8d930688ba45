import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

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
/// routes are decoded only after that check (`UndecodedRoute`).
package struct RequestReads: Sendable {
    package let database: MongoDatabase

    package init(users: UserRepository) {
        database = users.collection.database
    }

    package init(routes: RouteRepository) {
        database = routes.collection.database
    }

    /// What `route(_:token:)` found.
    package struct RouteLookup: Sendable {
        /// The user the token names or whose digest matched, if any; the caller must still check
        /// the token against it.
        package var user: UserRecord?
        /// The route, if it exists.
        package var route: UndecodedRoute?
        /// For a caller who is not the owner: the owner's privacy zones and their version.
        package var ownerPrivacy: (zones: [PrivacyZone], version: Int)?

        package init(
            user: UserRecord? = nil, route: UndecodedRoute? = nil,
            ownerPrivacy: (zones: [PrivacyZone], version: Int)? = nil
        ) {
            self.user = user
            self.route = route
            self.ownerPrivacy = ownerPrivacy
        }
    }

    /// The caller of `token` and the route `id`, with its owner's zones when the caller is someone
    /// else: for a token that names its user, the route by `_id`, then the caller and the owner by
    /// `_id`, each read coalesced with the same reads of concurrent requests
    /// (`MongoCollection.documents(ids:)`): two round trips for a request alone, a share of two under
    /// load. An older token takes three, in one pool job.
    package func route(_ id: String, token: String) async throws -> RouteLookup {
        switch UserToken(token) {
        case .malformed:
            return RouteLookup()
        case .named(let caller):
            var found = RouteLookup()
            if RouteID.isPlausible(id) {
                found.route = try await database.collection("routes").documents(ids: [id])[id].map(UndecodedRoute.init)
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

    /// The caller of `token` and the route `id`, for a request only the route's owner may make (a
    /// write): for a token that names its user, the route and the caller in one round trip
    /// (`MongoCollection.documents(ids:with:ids:)`, coalesced with the same reads of concurrent
    /// requests). `ownerPrivacy` is not read: a caller who is not the owner is refused.
    package func routeToWrite(_ id: String, token: String) async throws -> RouteLookup {
        guard case .named(let caller) = UserToken(token), RouteID.isPlausible(id) else {
            return try await route(id, token: token)
        }
        let found = try await database.collection("routes").documents(
            ids: [id], with: database.collection("users"), ids: [caller])
        var lookup = RouteLookup()
        lookup.user = found.other[caller].flatMap(UserRepository.record)
        lookup.route = found.mine[id].map(UndecodedRoute.init)
        return lookup
    }

    /// What `inbox(token:after:limit:)` found.
    package struct InboxLookup: Sendable {
        /// As in `RouteLookup`.
        package var user: UserRecord?
        /// The page of shares to the caller, newest first (up to `limit`).
        package var shares: [ShareRecord] = []
        /// The routes of those shares that exist, by id.
        package var routes: [String: UndecodedRoute] = [:]
        /// Their owners' names, zones and zones version, by id.
        package var owners: [String: (name: String, zones: [PrivacyZone], version: Int)] = [:]
        /// How many shares the caller has in all.
        package var total = 0

        package init(
            user: UserRecord? = nil, shares: [ShareRecord] = [], routes: [String: UndecodedRoute] = [:],
            owners: [String: (name: String, zones: [PrivacyZone], version: Int)] = [:], total: Int = 0
        ) {
            self.user = user
            self.shares = shares
            self.routes = routes
            self.owners = owners
            self.total = total
        }
    }

    /// The caller of `token`, a page of their inbox (`ShareRepository.inbox`), its routes, their
    /// owners (names and zones) and the inbox's size, in one aggregation on `shares`
    /// (`inboxPipeline`), coalesced with the inbox pages that concurrent requests ask for
    /// (`MongoCollection.aggregateCoalesced`): one round trip for a request alone, a share of one
    /// under load. An older token takes two, in one pool job: its user by its digest, then the page.
    package func inbox(token: String, after: (Date, String)?, limit: Int) async throws -> InboxLookup {
        switch UserToken(token) {
        case .malformed:
            return InboxLookup()
        case .named(let caller):
            let output = try await database.collection("shares").aggregateCoalesced(
                Self.inboxPipeline(of: caller, after: after, limit: limit, withCaller: true), expected: limit + 2)
            return Self.inbox(output)
        case .unnamed:
            return try await database.job { job in
                guard let user = try Self.user(tokenHash: Secret.hash(token), job) else { return InboxLookup() }
                let output = try job.collection("shares").aggregate(
                    Self.inboxPipeline(of: user.id, after: after, limit: limit, withCaller: false),
                    firstBatch: limit + 1)
                var found = Self.inbox(output)
                found.user = user
                return found
            }
        }
    }

    /// A page of the inbox of `caller` as one pipeline on `shares`, each part by an index: up to
    /// `limit` shares after `after`, newest first (ties by `_id`; `to_shared_at`), each with its
    /// route (`inbox_route`) and its owner's name and zones (`inbox_owner`) by `_id`; then
    /// `{inbox_total: n}`, the caller's count of shares (absent when there are none); then, if
    /// `withCaller`, `{inbox_caller: <the caller's user document>}` (absent when there is none).
    package static func inboxPipeline(of caller: String, after: (Date, String)?, limit: Int, withCaller: Bool)
        -> [BSONDocument]
    {
        var pipeline: [BSONDocument] = [
            ["$match": .document(ShareRepository.inboxFilter(of: caller, after: after))],
            ["$sort": ["shared_at": -1, "_id": 1]],
            ["$limit": .int(limit)],
            [
                "$lookup": [
                    "from": "routes", "localField": "route", "foreignField": "_id", "as": "inbox_route",
                    // The inbox shows no annotations (a megabyte a route at most).
                    "pipeline": [["$project": .document(RouteRepository.withoutAnnotations)]],
                ]
            ],
            [
                "$lookup": [
                    "from": "users", "localField": "owner", "foreignField": "_id", "as": "inbox_owner",
                    "pipeline": [["$project": ["name": 1, "privacy_zones": 1, "zones_version": 1]]],
                ]
            ],
            [
                "$unionWith": [
                    "coll": "shares",
                    "pipeline": [
                        ["$match": ["to": .string(caller)]],
                        ["$group": ["_id": .null, "inbox_total": ["$sum": 1]]],
                    ],
                ]
            ],
        ]
        if withCaller {
            pipeline.append([
                "$unionWith": [
                    "coll": "users",
                    "pipeline": [["$match": ["_id": .string(caller)]], ["$replaceWith": ["inbox_caller": "$$ROOT"]]],
                ]
            ])
        }
        return pipeline
    }

    /// What `inboxPipeline` returned, sorted out: the shares in order with their routes and owners,
    /// the count, and the caller when it was asked for.
    private static func inbox(_ output: [BSONDocument]) -> InboxLookup {
        var found = InboxLookup()
        for document in output {
            if let user = document.document("inbox_caller") {
                found.user = UserRepository.record(user)
            } else if let total = document.int("inbox_total") {
                found.total = total
            } else if let share = ShareRepository.record(document) {
                found.shares.append(share)
                if let route = document.array("inbox_route")?.first?.documentValue {
                    found.routes[share.route] = UndecodedRoute(document: route)
                }
                if let owner = document.array("inbox_owner")?.first?.documentValue, let name = owner.string("name") {
                    let privacy = Self.privacy(owner)
                    found.owners[share.owner] = (name, privacy.zones, privacy.version)
                }
            }
        }
        return found
    }

    private static func user(tokenHash: Data, _ job: MongoJob) throws -> UserRecord? {
        try job.collection("users").findOne(["token_hash": .binary(subtype: 0, Array(tokenHash))])
            .flatMap(UserRepository.record)
    }

    private static func route(_ id: String, _ job: MongoJob) throws -> UndecodedRoute? {
        guard RouteID.isPlausible(id) else { return nil }
        return try job.collection("routes").findOne(["_id": .string(id)]).map(UndecodedRoute.init(document:))
    }

    private static func privacy(_ document: BSONDocument) -> (zones: [PrivacyZone], version: Int) {
        (UserRepository.zones(document), document.int("zones_version") ?? 0)
    }
}

/// A route document read before the caller's token was checked, decoded (`record()`) only once it
/// has been: a request with a wrong token costs no decoding (a route's open tail can hold 999
/// points) and cannot fail on it.
package struct UndecodedRoute: Sendable {
    fileprivate let document: BSONDocument

    /// The owner, which deciding what else to read needs before the check.
    package var owner: String? { document.string("owner") }

    package func record() throws -> StoredRoute { try StoredRoute(document: document) }
}
