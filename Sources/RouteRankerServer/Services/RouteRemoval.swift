import RouteRankerModels
import RouteRankerStorage

/// Deleting a route with everything attached to it: its segment efforts and best efforts (first, so that no effort
/// of a deleted route is left to read, and again after the route document, for a match that was
/// storing efforts meanwhile — see `SegmentEfforts`), the route document, then its shares,
/// links, group memberships, stored paths and points. Once the route document is gone nothing
/// else of it is reachable, so a failure half-way leaves only invisible leftovers. Used by
/// `DELETE /v1/routes/{id}` and by the trip rule.
struct RouteRemoval: Sendable {
    let routes: RouteRepository
    let shares: ShareRepository
    let links: LinkRepository
    let groups: GroupRepository
    let paths: PathRepository
    let buckets: PointBuckets
    let efforts: SegmentEfforts
    let bestEfforts: BestEffortsKeeper

    func remove(_ route: StoredRoute) async throws {
        let id = route.id
        try await efforts.routeRemoved(id)
        try await bestEfforts.removed(route)
        try await routes.delete(id: id)
        try await efforts.routeRemoved(id)
        try await bestEfforts.removed(route)
        try await shares.deleteAll(route: id)
        try await links.deleteAll(route: id)
        try await groups.removeEverywhere(route: id)
        try await paths.deleteAll(route: id)
        try await buckets.deleteAll(route: id)
    }
}
