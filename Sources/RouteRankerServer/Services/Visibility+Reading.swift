/// The hot read path of `Visibility`: the caller's token, the route and what deciding its
/// visibility needs, read together (`RequestReads`), then the same rules as
/// `Authenticator.user` and `readable(_:by:)`, and the reader's lens.
extension Visibility {
    /// A route a caller may read, and how they see it.
    struct Reading: Sendable {
        var user: UserRecord
        var route: RouteRecord
        var lens: RouteViewer.Lens
        /// For the owner: the recipients of the route's shares, newest first.
        var recipients: [String]?
    }

    /// The caller of `token` (else `401`) and the route `id` if they may read it (else
    /// `RouteNotVisible`, `404`), with their lens; the owner also gets the route's recipients.
    func reading(_ id: String, token: String, auth: Authenticator, viewer: RouteViewer) async throws -> Reading {
        let found = try await RequestReads(routes: routes).route(id, token: token)
        let user = try auth.accept(token, found: found.user)
        guard let route = try found.route?.record(), route.isReadable(by: user.id) else { throw RouteNotVisible() }
        if route.owner == user.id {
            return Reading(user: user, route: route, lens: .owner, recipients: route.recipients)
        }
        return Reading(user: user, route: route, lens: viewer.lens(found.ownerPrivacy))
    }

    /// The route `id` if the caller of `token` owns it, for a write: `401` for a bad token, else
    /// `404` (`RouteNotVisible`), or `403` (`NotRouteOwner`) when it is only shared with them —
    /// `Authenticator.user` and `owned(_:by:)` with the reads of `RequestReads.routeToWrite`.
    func owned(_ id: String, token: String, auth: Authenticator) async throws -> RouteRecord {
        let found = try await RequestReads(routes: routes).routeToWrite(id, token: token)
        let user = try auth.accept(token, found: found.user)
        guard let route = try found.route?.record(), route.isReadable(by: user.id) else { throw RouteNotVisible() }
        guard route.owner == user.id else { throw NotRouteOwner() }
        return route
    }
}
