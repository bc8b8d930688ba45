import Mongo
import Prometheus

/// The controllers, wired to their repositories once per application.
struct Controllers: Sendable {
    let operations: OperationsController
    let users: UsersController
    let routes: RoutesController
    let routeList: RouteListController
    let downloads: DownloadsController

    init(database: MongoDatabase, registry: PrometheusCollectorRegistry) {
        let userRepository = UserRepository(database: database)
        let routeRepository = RouteRepository(database: database)
        let buckets = PointBuckets(database: database)
        let auth = Authenticator(users: userRepository)
        let visibility = Visibility(routes: routeRepository)
        operations = OperationsController(database: database, registry: registry)
        users = UsersController(users: userRepository, auth: auth)
        routes = RoutesController(
            auth: auth, visibility: visibility, routes: routeRepository, buckets: buckets,
            idempotency: IdempotencyRepository(database: database), database: database, locks: RouteLocks())
        routeList = RouteListController(auth: auth, routes: routeRepository)
        downloads = DownloadsController(auth: auth, visibility: visibility, buckets: buckets)
    }
}
