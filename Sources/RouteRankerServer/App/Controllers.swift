import Mongo
import Prometheus

/// The controllers, wired once per application to the repositories and services they take.
struct Controllers: Sendable {
    let operations: OperationsController
    let users: UsersController
    let privacyZones: PrivacyZonesController
    let routes: RoutesController
    let routeList: RouteListController
    let downloads: DownloadsController
    let shares: SharesController
    let links: LinksController
    let similar: SimilarController
    let groups: GroupsController
    let groupStats: GroupStatsController
    let devices: DevicesController
    let track: TrackController

    init(
        database: MongoDatabase, clock: WallClock, similarCellBudget: Int, registry: PrometheusCollectorRegistry,
        openAPIDocument: [UInt8], trackers: TrackerWiring? = nil
    ) {
        let userRepository = UserRepository(database: database)
        let routeRepository = RouteRepository(database: database)
        let shareRepository = ShareRepository(database: database, clock: clock)
        let linkRepository = LinkRepository(database: database)
        let buckets = PointBuckets(database: database)
        let groupRepository = GroupRepository(database: database)
        let paths = PathRepository(database: database, buckets: buckets)
        let auth = Authenticator(users: userRepository)
        let visibility = Visibility(routes: routeRepository, shares: shareRepository)
        let viewer = RouteViewer(users: userRepository, routes: routeRepository, buckets: buckets)
        let similarRoutes = SimilarRoutes(
            routes: routeRepository, shares: shareRepository, users: userRepository, viewer: viewer, paths: paths,
            cellBudget: similarCellBudget)
        operations = OperationsController(
            health: DatabaseHealth(database: database), openAPIDocument: openAPIDocument, registry: registry)
        users = UsersController(users: userRepository, auth: auth, clock: clock)
        privacyZones = PrivacyZonesController(auth: auth, users: userRepository)
        routes = RoutesController(
            auth: auth, visibility: visibility, routes: routeRepository, buckets: buckets,
            idempotency: IdempotencyRepository(database: database), locks: RouteLocks(), shares: shareRepository,
            links: linkRepository, groups: groupRepository, paths: paths, viewer: viewer, clock: clock,
            finisher: RouteFinisher(routes: routeRepository),
            removal: RouteRemoval(
                routes: routeRepository, shares: shareRepository, links: linkRepository, groups: groupRepository,
                paths: paths, buckets: buckets))
        routeList = RouteListController(
            auth: auth, routes: routeRepository, shares: shareRepository, users: userRepository, viewer: viewer)
        downloads = DownloadsController(auth: auth, visibility: visibility, buckets: buckets, viewer: viewer)
        shares = SharesController(
            auth: auth, visibility: visibility, users: userRepository, routes: routeRepository,
            shares: shareRepository, viewer: viewer)
        links = LinksController(
            auth: auth, visibility: visibility, routes: routeRepository, links: linkRepository, viewer: viewer,
            buckets: buckets, clock: clock)
        similar = SimilarController(auth: auth, visibility: visibility, similar: similarRoutes)
        groups = GroupsController(
            auth: auth, visibility: visibility, groups: groupRepository, viewer: viewer, users: userRepository,
            shares: shareRepository, similar: similarRoutes, clock: clock)
        groupStats = GroupStatsController(auth: auth, visibility: visibility, groups: groupRepository)
        let trackers = trackers ?? TrackerWiring(database: database, clock: clock, publicURL: nil)
        devices = DevicesController(
            auth: auth, users: userRepository, devices: trackers.devices, trips: trackers.trips, locks: trackers.locks,
            clock: clock, publicURL: trackers.publicURL)
        track = TrackController(devices: DeviceAuthenticator(devices: trackers.devices), recorder: trackers.recorder)
    }
}
