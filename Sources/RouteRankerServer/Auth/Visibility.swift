/// Who may see a route: the one function every route read goes through.
///
/// A route is visible to its owner (and, with sharing, to the users it is shared with). Anything
/// else — absent, malformed id, someone else's — is the same `404` with the same body, so a
/// caller learns nothing about routes that are not theirs.
struct Visibility: Sendable {
    let routes: RouteRepository

    static let notFound = APIError.notFound("route not found")

    /// The route if `user` may read it, else `404`.
    func readable(_ id: String, by user: UserRecord) async throws -> RouteRecord {
        guard let route = try await routes.find(id: id), route.owner == user.id else { throw Self.notFound }
        return route
    }

    /// The route if `user` owns it. Someone who can read but not own it gets `403`; anyone else `404`.
    func owned(_ id: String, by user: UserRecord) async throws -> RouteRecord {
        let route = try await readable(id, by: user)
        guard route.owner == user.id else { throw APIError.forbidden("only the route's owner may do this") }
        return route
    }
}
