/// Who may see a route: the one function every route read goes through.
///
/// Both hash checks of the contract happen before this is called (the caller's token hash was
/// matched by `Authenticator`); here the second: the route is the caller's own, or the caller is in
/// its share list — the `readers` of the route document itself (`RouteRecord.isReadable(by:)`), so
/// the route's `_id` lookup is the whole check. Anything else — absent, malformed id, someone
/// else's, unshared — is the same `404` with the same body, so a caller learns nothing about routes
/// that are not theirs.
///
/// `shares` is the index of who got what, for lists (the inbox, routes shared with me). It names
/// candidates only: a share and a revocation of the same recipient racing, or a server of an
/// earlier version, can leave a share whose recipient the route does not list, so every list drawn
/// from it keeps only the routes whose `readers` agree.
struct Visibility: Sendable {
    let routes: RouteRepository
    let shares: ShareRepository

    /// The route if `user` may read it, else `RouteNotVisible` (`404`).
    func readable(_ id: String, by user: UserRecord) async throws -> RouteRecord {
        guard let route = try await routes.find(id: id), route.isReadable(by: user.id) else {
            throw RouteNotVisible()
        }
        return route
    }

    /// Of `ids`, the routes `user` may read, by id (one query per 100 ids).
    func readable(_ ids: [String], by user: UserRecord) async throws -> [String: RouteRecord] {
        try await routes.find(ids: ids).filter { $0.value.isReadable(by: user.id) }
    }

    /// Of `ids`, the figures of the routes `user` may read (for group statistics).
    func readableFigures(_ ids: [String], by user: UserRecord) async throws -> [String: RouteFigures] {
        try await routes.figures(ids: ids).filter { $0.value.isReadable(by: user.id) }
    }

    /// The route if `user` owns it. Someone it is shared with gets `403`; anyone else `RouteNotVisible` (`404`).
    func owned(_ id: String, by user: UserRecord) async throws -> RouteRecord {
        let route = try await readable(id, by: user)
        guard route.owner == user.id else { throw NotRouteOwner() }
        return route
    }

    /// The routes shared with `user`, by id: the candidates the `shares` index names, kept when the
    /// route lists `user` among its readers.
    func sharedRoutes(with user: UserRecord) async throws -> [String: RouteRecord] {
        try await routes.find(ids: try await shares.routeIDs(sharedWith: user.id))
            .filter { $0.value.owner != user.id && $0.value.isReadable(by: user.id) }
    }

    /// Of routes whose owners are known (e.g. from stored efforts), the ids `user` may read: the
    /// same rule as `readable`, theirs or shared with them. The candidates come from the index on
    /// recipients (`to`) rather than as an `_id $in` of every foreign route: SecantusDB answers a
    /// long `$in` slowly and superlinearly (measured: a 1,000-effort leaderboard took 2,020 ms that
    /// way, 148 ms this way), while the routes shared with one user are one indexed range. Only
    /// those candidates are then read (their readers alone) to confirm them.
    func readableIDs(_ routes: [(id: String, owner: String)], by user: UserRecord) async throws -> Set<String> {
        let mine = routes.filter { $0.owner == user.id }.map(\.id)
        guard routes.contains(where: { $0.owner != user.id }) else { return Set(mine) }
        let shared = Set(try await shares.routeIDs(sharedWith: user.id))
        let candidates = Set(routes.filter { $0.owner != user.id && shared.contains($0.id) }.map(\.id))
        let confirmed = try await self.routes.readers(ids: Array(candidates))
            .filter { $0.value.contains(user.id) }.keys
        return Set(mine).union(confirmed)
    }
}
