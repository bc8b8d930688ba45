import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Keeps the stored best efforts in step with routes (API.md: they follow their routes at once):
/// computed from a route's kept points when it becomes finished or changes activity, removed
/// with it. Reads never compute them; they are indexed queries over what this stores.
struct BestEffortsKeeper: Sendable {
    let bestEfforts: BestEffortRepository
    let routes: RouteRepository
    let buckets: PointBuckets

    /// Stores the best efforts of `route` as it is now: a finished route's, computed from all its
    /// kept points (privacy zones do not apply: efforts carry no positions); none for a recording
    /// one. A route deleted meanwhile leaves nothing behind: its removal may have run before
    /// these were stored, so the route is looked at again afterwards.
    func update(_ route: StoredRoute) async throws {
        guard route.state == .finished else {
            try await bestEfforts.deleteAll(route: route.id, owner: route.owner)
            return
        }
        let efforts = try await compute(route).map { BestEffortRecord($0, route: route.record) }
        try await bestEfforts.replace(route: route.record, with: efforts)
        if try await !routes.exists(id: route.id) { try await removed(route) }
    }

    /// Removes a route's best efforts (before and after its document goes: see `RouteRemoval`).
    func removed(_ route: StoredRoute) async throws {
        try await bestEfforts.deleteAll(route: route.id, owner: route.owner)
    }

    /// Core's rule over the kept points, read bucket by bucket into two arrays (distance along
    /// the route and time), so that a million-point route needs 16 MB, not its points.
    private func compute(_ route: StoredRoute) async throws -> [BestEffort] {
        guard !BestEffortDistance.standard(for: route.activity).isEmpty, route.pointCount > 1 else { return [] }
        var path = BestEfforts.Path(capacity: route.pointCount)
        for try await chunk in buckets.read(route) { path.append(contentsOf: chunk) }
        return BestEfforts.compute(distances: path.distances, times: path.times, activity: route.activity)
    }
}
