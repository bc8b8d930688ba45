import Logging
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
    let pictures: PicturesController
    let pages: PagesController
    let segments: SegmentsController
    let segmentBoards: SegmentBoardsController
    let live: LiveController
    let devices: DevicesController
    let track: TrackController

    init(
        database: MongoDatabase, clock: WallClock, similarCellBudget: Int, registry: PrometheusCollectorRegistry,
        openAPIDocument: [UInt8], hub: LiveHub? = nil, trackers: TrackerWiring? = nil
    ) {
        let userRepository = UserRepository(database: database)
        let routeRepository = RouteRepository(database: database)
        let shareRepository = ShareRepository(database: database, clock: clock)
        let linkRepository = LinkRepository(database: database)
        let buckets = PointBuckets(database: database)
        let groupRepository = GroupRepository(database: database)
        let paths = PathRepository(database: database, buckets: buckets)
        let auth = Authenticator(users: userRepository)
        let linkAccess = LinkAccess(links: linkRepository, routes: routeRepository, clock: clock)
        let visibility = Visibility(routes: routeRepository, shares: shareRepository)
        let viewer = RouteViewer(users: userRepository, routes: routeRepository, buckets: buckets)
        let segmentRepository = SegmentRepository(database: database)
        let effortRepository = EffortRepository(database: database)
        let segmentEfforts = SegmentEfforts(
            segments: segmentRepository, efforts: effortRepository, areas: RouteAreaRepository(database: database),
            routes: routeRepository, buckets: buckets)
        let similarRoutes = SimilarRoutes(
            routes: routeRepository, visibility: visibility, users: userRepository, viewer: viewer, paths: paths,
            cellBudget: similarCellBudget)
        operations = OperationsController(
            health: DatabaseHealth(database: database), openAPIDocument: openAPIDocument, registry: registry)
        users = UsersController(users: userRepository, auth: auth, clock: clock)
        privacyZones = PrivacyZonesController(auth: auth, users: userRepository)
        routes = RoutesController(
            auth: auth, visibility: visibility, routes: routeRepository, buckets: buckets,
            idempotency: IdempotencyRepository(database: database), locks: RouteLocks(),
            links: linkRepository, groups: groupRepository, paths: paths, viewer: viewer, clock: clock,
            efforts: segmentEfforts, finisher: RouteFinisher(routes: routeRepository, efforts: segmentEfforts),
            removal: RouteRemoval(
                routes: routeRepository, shares: shareRepository, links: linkRepository, groups: groupRepository,
                paths: paths, buckets: buckets, efforts: segmentEfforts))
        routeList = RouteListController(
            auth: auth, routes: routeRepository, visibility: visibility, users: userRepository, viewer: viewer)
        downloads = DownloadsController(auth: auth, visibility: visibility, buckets: buckets, viewer: viewer)
        shares = SharesController(
            auth: auth, visibility: visibility, users: userRepository, routes: routeRepository,
            shares: shareRepository, viewer: viewer)
        links = LinksController(
            auth: auth, visibility: visibility, routes: routeRepository, links: linkRepository, viewer: viewer,
            buckets: buckets, clock: clock, access: linkAccess)
        similar = SimilarController(auth: auth, visibility: visibility, similar: similarRoutes)
        groups = GroupsController(
            auth: auth, visibility: visibility, groups: groupRepository, viewer: viewer, users: userRepository,
            similar: similarRoutes, clock: clock)
        groupStats = GroupStatsController(auth: auth, visibility: visibility, groups: groupRepository)
        let routePictures = RoutePictures(buckets: buckets)
        pictures = PicturesController(
            auth: auth, visibility: visibility, viewer: viewer, links: linkAccess, pictures: routePictures)
        pages = PagesController(links: linkAccess, viewer: viewer, users: userRepository, pictures: routePictures)
        segments = SegmentsController(
            auth: auth, visibility: visibility, viewer: viewer, buckets: buckets, segments: segmentRepository,
            efforts: segmentEfforts, clock: clock)
        segmentBoards = SegmentBoardsController(
            auth: auth,
            boards: SegmentBoards(
                segments: segmentRepository, efforts: effortRepository, visibility: visibility, users: userRepository))
        live = LiveController(
            auth: auth, visibility: visibility, links: linkRepository, routes: routeRepository,
            hub: hub ?? LiveHub(database: database, logger: Logger(label: "routeranker.live")),
            buckets: buckets, viewer: viewer, clock: clock)
        let trackers = trackers ?? TrackerWiring(database: database, clock: clock, publicURL: nil)
        devices = DevicesController(
            auth: auth, users: userRepository, devices: trackers.devices, trips: trackers.trips, locks: trackers.locks,
            clock: clock, publicURL: trackers.publicURL)
        track = TrackController(devices: DeviceAuthenticator(devices: trackers.devices), recorder: trackers.recorder)
    }
}
