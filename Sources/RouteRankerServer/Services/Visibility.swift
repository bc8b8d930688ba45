import RouteRankerModels
import RouteRankerStorage

/// Which of many routes a user may see: the lists' side of the one visibility rule
/// (`RouteRecord.isReadable(by:)`: the route is the caller's own, or the caller is in its share
/// list, the `readers` of the route document itself). One route by id is reached through
/// `RouteAccess`, which applies the same rule to the route it reads with the caller.
///
/// `shares` is the index of who got what, for lists (the inbox, routes shared with me). It names
/// candidates only: a share and a revocation of the same recipient racing, or a server of an
/// earlier version, can leave a share whose recipient the route does not list, so every list drawn
/// from it keeps only the routes whose `readers` agree.
struct Visibility: Sendable {
    let routes: RouteRepository
    let shares: ShareRepository

    /// Of `ids`, the routes `user` may read, by id (one query per 100 ids).
    func readable(_ ids: [String], by user: UserRecord, annotations: Bool = true) async throws
        -> [String: RouteRecord]
    {
        try await routes.find(ids: ids, annotations: annotations).filter { $0.value.isReadable(by: user.id) }
    }

    /// Of `ids`, the figures of the routes `user` may read (for group statistics).
    func readableFigures(_ ids: [String], by user: UserRecord) async throws -> [String: RouteFigures] {
        try await routes.figures(ids: ids).filter { $0.value.isReadable(by: user.id) }
    }

    /// The routes shared with `user`, by id: the candidates the `shares` index names, kept when the
    /// route lists `user` among its readers.
    func sharedRoutes(with user: UserRecord, annotations: Bool = true) async throws -> [String: RouteRecord] {
        try await routes.find(ids: try await shares.routeIDs(sharedWith: user.id), annotations: annotations)
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
