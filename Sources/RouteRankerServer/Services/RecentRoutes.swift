import RouteRankerModels
import RouteRankerStorage
import Synchronization

/// The route documents this process last committed for recording devices, so that a device's
/// next point needs no read of its route: the commit is guarded by the route's version anyway,
/// so a copy that another writer (process) made stale only costs a failed commit and a re-read,
/// never a wrong write. Bounded: when full, an arbitrary entry makes room.
final class RecentRoutes: Sendable {
    private let capacity: Int
    private let routes = Mutex<[String: StoredRoute]>([:])

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func get(_ id: String) -> StoredRoute? {
        routes.withLock { $0[id] }
    }

    func put(_ route: StoredRoute) {
        routes.withLock { routes in
            if routes[route.id] == nil, routes.count >= capacity, let victim = routes.keys.first {
                routes[victim] = nil
            }
            routes[route.id] = route
        }
    }

    func forget(_ id: String) {
        routes.withLock { _ = $0.removeValue(forKey: id) }
    }
}
