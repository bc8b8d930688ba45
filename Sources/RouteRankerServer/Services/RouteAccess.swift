import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// The one door to every route: who sees what of it. A reader comes in as a bearer token (its user)
/// or a share link's secret, handed over by the controller as plain values; what comes out is a
/// reading, the route with the lenses the reader sees it through. Lists of routes come through the
/// same door (`RouteAccess+Lists.swift`). Nothing else applies the visibility rule
/// (`RouteReaders.isReadable(by:)`: the route is the caller's own, or its `readers` list them), and
/// nothing else computes a reader's lenses: `scripts/check-access` fails CI if the rule gets a
/// caller anywhere else.
///
/// For a token, the caller's user document, the route and (for someone else's route) its owner's
/// privacy zones are read together (`RequestReads`, coalesced with the same reads of concurrent
/// requests), then the contract's rules decide: a bad token is `401`; a route that is absent,
/// malformed, someone else's or not shared with the caller is the same `404` (`RouteNotVisible`),
/// so a caller learns nothing about routes that are not theirs; a write by someone the route is
/// only shared with is `403` (`NotRouteOwner`). For a link, every unusable secret is the same
/// `404` (`LinkNotUsable`).
///
/// Nothing is cached: every call reads the caller and the route afresh, so a rotated token, a
/// revoked share or link or a deleted route stops working at once (the live streams call it again
/// after every change they are told of).
struct RouteAccess: Sendable {
    let reads: RequestReads
    let auth: Authenticator
    let viewer: RouteViewer
    let links: LinkRepository
    let routes: RouteRepository
    let shares: ShareRepository
    let clock: WallClock

    /// What a reader sees of a route besides what its record says: a view of it per concern, each
    /// decided here with access. The owner's privacy zones today; a new concern (e.g. which sensors
    /// a reader sees) is a new member, set where the privacy lens is set here, without a new door.
    struct Lenses: Sendable {
        /// The owner's privacy zones as they apply to this reader (none for the owner).
        var privacy: PrivacyLens

        /// Everything, as the owner sees it.
        static let owner = Lenses(privacy: .owner)
    }

    /// A route a caller may read, and how they see it.
    struct Reading: Sendable {
        var user: UserRecord
        var route: StoredRoute
        var lenses: Lenses
        /// For the owner: the recipients of the route's shares, newest first.
        var recipients: [String]?

        /// Whether the caller may still read `newer`, a later version of the same route document
        /// (as a live stream is told of it): decided by its readers alone, without a round trip.
        func admits(_ newer: StoredRoute) -> Bool { newer.isReadable(by: user.id) }
    }

    /// A route read through a share link, as anyone but the owner sees it.
    struct LinkReading: Sendable {
        var link: LinkRecord
        var route: StoredRoute
        var lenses: Lenses
    }

    /// A route the caller owns, for a write.
    struct Owned: Sendable {
        var user: UserRecord
        var route: StoredRoute
    }

    /// The caller of `token` and the route `id`, if they may read it; the owner also gets the
    /// route's recipients.
    func reading(_ id: String, token: String) async throws -> Reading {
        let found = try await reads.route(id, token: token)
        let user = try auth.accept(token, found: found.user)
        guard let route = try found.route?.record(),
            let reading = reading(route, by: user, ownerPrivacy: found.ownerPrivacy)
        else { throw RouteNotVisible() }
        return reading
    }

    /// `route`, already read, as `user` (already authenticated) sees it, or nil if they may not
    /// read it; `ownerPrivacy` is its owner's zones, read with it (the inbox reads a page of them).
    func reading(_ route: StoredRoute, by user: UserRecord, ownerPrivacy: (zones: [PrivacyZone], version: Int)?)
        -> Reading?
    {
        guard route.isReadable(by: user.id) else { return nil }
        if route.owner == user.id {
            return Reading(user: user, route: route, lenses: .owner, recipients: route.recipients)
        }
        return Reading(user: user, route: route, lenses: lenses(ownerPrivacy))
    }

    /// The caller of `token` and the route `id`, if they own it: the caller and the route in one
    /// round trip (`RequestReads.routeToWrite`).
    func owned(_ id: String, token: String) async throws -> Owned {
        let found = try await reads.routeToWrite(id, token: token)
        let user = try auth.accept(token, found: found.user)
        guard let route = try found.route?.record(), route.isReadable(by: user.id) else { throw RouteNotVisible() }
        guard route.owner == user.id else { throw NotRouteOwner() }
        return Owned(user: user, route: route)
    }

    /// The route behind a share link's secret, as anyone but the owner sees it. Every unusable
    /// secret — unknown, expired, revoked, malformed, its route gone — is the same `LinkNotUsable`.
    func reading(link secret: String) async throws -> LinkReading {
        guard let reading = try await linkReading(secret) else { throw LinkNotUsable() }
        return reading
    }

    /// As `reading(link:)`, nil when the secret is unusable. Looked up by the secret's hash (the
    /// index holds nothing else), then compared in constant time, then checked for expiry.
    func linkReading(_ secret: String) async throws -> LinkReading? {
        guard secret.utf8.count <= 256, let link = try await links.find(secretHash: Secret.hash(secret)),
            Secret.matches(secret, storedHash: link.secretHash), link.expiresAt > clock.now,
            let route = try await routes.find(id: link.route)
        else { return nil }
        let privacy = try await viewer.lens(owner: route.owner, viewer: nil)
        return LinkReading(link: link, route: route, lenses: Lenses(privacy: privacy))
    }

    /// The lenses of someone other than the owner, whose zones are `ownerPrivacy`.
    private func lenses(_ ownerPrivacy: (zones: [PrivacyZone], version: Int)?) -> Lenses {
        Lenses(privacy: viewer.lens(ownerPrivacy))
    }
}
