/// The hot read path of `Visibility`: the caller's token, the route and what deciding its
/// visibility needs, read in one pool job (`RequestReads`), then the same rules as
/// `Authenticator.user` and `readable(_:by:)`, and the reader's lens.
extension Visibility {
    /// A route a caller may read, and how they see it.
    struct Reading: Sendable {
        var user: UserRecord
        var route: RouteRecord
        var lens: RouteViewer.Lens
        /// For the owner, when asked for: the recipients of the route's shares, newest first.
        var recipients: [String]?
    }

    /// The caller of `token` (else `401`) and the route `id` if they may read it (else
    /// `RouteNotVisible`, `404`), with their lens; with `recipients`, the owner also gets the
    /// route's recipients.
    func reading(
        _ id: String, token: String, auth: Authenticator, viewer: RouteViewer, recipients: Bool = false
    ) async throws -> Reading {
        let found = try await RequestReads(routes: routes).route(
            id, tokenHash: Secret.hash(token), recipients: recipients)
        let user = try auth.accept(token, found: found.user)
        guard let route = found.route else { throw RouteNotVisible() }
        if route.owner == user.id {
            return Reading(user: user, route: route, lens: .owner, recipients: found.recipients)
        }
        guard found.shared else { throw RouteNotVisible() }
        return Reading(user: user, route: route, lens: viewer.lens(found.ownerPrivacy))
    }
}
