import RouteRankerModels
import RouteRankerStorage

/// Which of many routes a user may see: the lists' side of the one door, with the same rule
/// (`RouteReaders.isReadable(by:)`) as one route by id.
///
/// `shares` is the index of who got what, for lists (the inbox, routes shared with me). It names
/// candidates only: a share and a revocation of the same recipient racing, or a server of an
/// earlier version, can leave a share whose recipient the route does not list, so every list drawn
/// from it keeps only the routes whose `readers` agree.
extension RouteAccess {
    /// Of `ids`, the routes `user` may read, by id (one query per 100 ids).
    func readable(_ ids: [String], by user: UserRecord, annotations: Bool = true) async throws
        -> [String: StoredRoute]
    {
        try await routes.find(ids: ids, annotations: annotations).filter { $0.value.isReadable(by: user.id) }
    }

    /// Of `ids`, the figures of the routes `user` may read (for group statistics).
    func readableFigures(_ ids: [String], by user: UserRecord) async throws -> [String: RouteFigures] {
        try await routes.figures(ids: ids).filter { $0.value.isReadable(by: user.id) }
    }

    /// The routes shared with `user`, by id: the candidates the `shares` index names, kept when the
    /// route lists `user` among its readers.
    func sharedRoutes(with user: UserRecord, annotations: Bool = true) async throws -> [String: StoredRoute] {
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
        let candidates = routes.filter { $0.owner != user.id && shared.contains($0.id) }
        let owners = Dictionary(candidates.map { ($0.id, $0.owner) }, uniquingKeysWith: { first, _ in first })
        let confirmed = try await self.routes.readers(ids: Array(owners.keys)).filter { id, readers in
            owners[id].map { KnownReaders(owner: $0, readers: readers).isReadable(by: user.id) } ?? false
        }.keys
        return Set(mine).union(confirmed)
    }
}

/// A route's owner (known from elsewhere) and its readers as read alone: what the rule needs.
private struct KnownReaders: RouteReaders {
    var owner: String
    var readers: [String]
}
