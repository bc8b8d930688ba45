import RouteRankerModels
import RouteRankerStorage

/// Finishing a route: the one place that turns a recording route into a finished one, whoever
/// asks (its owner by hand, or a device's trip logic), so that work done when a route is
/// finished (e.g. computing efforts) has one place to hook in.
struct RouteFinisher: Sendable {
    let routes: RouteRepository
    let efforts: SegmentEfforts
    let bestEfforts: BestEffortsKeeper

    /// Finishes `route` as read, in one version-guarded write, then stores its segment efforts
    /// and best efforts; a finished route is returned as it is (its efforts matched, and its best
    /// efforts stored again, in case a finish was cut off before they were). Throws `VersionConflict` when the route changed since it was read.
    func finish(_ route: StoredRoute) async throws -> StoredRoute {
        var finished = route
        if route.state == .recording {
            finished.state = .finished
            finished.version += 1
            try await routes.commit(finished, over: route.version, stored: route)
        }
        try await efforts.ensureMatched(finished)
        try await bestEfforts.update(finished)
        return finished
    }
}
