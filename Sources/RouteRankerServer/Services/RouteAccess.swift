import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// The one way a request reaches one route by id: its bearer token to the caller, the route, and
/// how the caller sees it. The caller's user document, the route and (for someone else's route)
/// its owner's privacy zones are read together (`RequestReads`, coalesced with the same reads of
/// concurrent requests), then the contract's rules decide: a bad token is `401`; a route that is
/// absent, malformed, someone else's or not shared with the caller is the same `404`
/// (`RouteNotVisible`), so a caller learns nothing about routes that are not theirs; a write by
/// someone the route is only shared with is `403` (`NotRouteOwner`). Lists of routes go through
/// `Visibility`, with the same membership rule (`RouteRecord.isReadable(by:)`).
///
/// Nothing is cached: every call reads the caller and the route afresh, so a rotated token, a
/// revoked share or a deleted route stops working at once (the live streams call it again after
/// every change they are told of).
struct RouteAccess: Sendable {
    let reads: RequestReads
    let auth: Authenticator
    let viewer: RouteViewer

    /// A route a caller may read, and how they see it.
    struct Reading: Sendable {
        var user: UserRecord
        var route: RouteRecord
        var lens: RouteViewer.Lens
        /// For the owner: the recipients of the route's shares, newest first.
        var recipients: [String]?
    }

    /// A route the caller owns, for a write.
    struct Owned: Sendable {
        var user: UserRecord
        var route: RouteRecord
    }

    /// The caller of `request` and the route `id`, if they may read it.
    func reading(_ id: String, _ request: Request) async throws -> Reading {
        try await reading(id, token: auth.token(request))
    }

    /// The caller of `token` and the route `id`, if they may read it; the owner also gets the
    /// route's recipients.
    func reading(_ id: String, token: String) async throws -> Reading {
        let found = try await reads.route(id, token: token)
        let user = try auth.accept(token, found: found.user)
        guard let route = try found.route?.record(), route.isReadable(by: user.id) else { throw RouteNotVisible() }
        if route.owner == user.id {
            return Reading(user: user, route: route, lens: .owner, recipients: route.recipients)
        }
        return Reading(user: user, route: route, lens: viewer.lens(found.ownerPrivacy))
    }

    /// The caller of `request` and the route `id`, if they own it.
    func owned(_ id: String, _ request: Request) async throws -> Owned {
        try await owned(id, token: auth.token(request))
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
}
