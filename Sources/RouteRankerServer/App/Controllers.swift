import Logging
import Prometheus
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// The application's object graph, built once: the one composition root. Every service that holds
/// state for the whole process exists once here and is shared by whoever needs it — one route lock
/// table (an app append and a tracker point to the same route queue in this process), one live hub
/// (the running one), one effort matcher — and the controllers take the repositories of `storage`
/// and those services, never each other.
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
    let records: RecordsController
    let account: AccountController
    let imports: ImportsController
    let export: ExportController
    let trainingLog: TrainingLogController
    let live: LiveController
    let devices: DevicesController
    let track: TrackController
    /// The idle sweep of device routes (a lifecycle service), on the same lock table.
    let sweeper: IdleRouteSweeper
    /// The best efforts of routes stored before them, computed beside the server (a lifecycle service).
    let backfill: BestEffortsBackfill
    /// Deletions of accounts that a process left half-done (a lifecycle service).
    let pendingRemovals: PendingAccountRemovals
    /// Import jobs, claimed and worked through in every process (a lifecycle service).
    let importWorker: ImportWorker
    /// Where costly request work runs, bounded per user (`similar`, `similar_to`, pictures).
    let costly: CostlyWork

    init(
        storage: Storage, hub: LiveHub, clock: WallClock, similarCellBudget: Int,
        registry: PrometheusCollectorRegistry, openAPIDocument: [UInt8], publicURL: String?,
        mapTiles: MapTiles? = nil,
        sweepInterval: Duration, logger: Logger
    ) {
        let s = storage
        let locks = RouteLocks()
        let auth = Authenticator(users: s.users)
        let viewer = RouteViewer(users: s.users, routes: s.routes, buckets: s.buckets)
        let access = RouteAccess(
            reads: s.reads, auth: auth, viewer: viewer, links: s.links, routes: s.routes, shares: s.shares,
            clock: clock)
        let segmentEfforts = SegmentEfforts(
            segments: s.segments, efforts: s.efforts, areas: s.areas, routes: s.routes, buckets: s.buckets)
        let similarRoutes = SimilarRoutes(
            routes: s.routes, access: access, users: s.users, viewer: viewer, paths: s.paths,
            cellBudget: similarCellBudget)
        let bestEfforts = BestEffortsKeeper(bestEfforts: s.bestEfforts, routes: s.routes, buckets: s.buckets)
        let finisher = RouteFinisher(routes: s.routes, efforts: segmentEfforts, bestEfforts: bestEfforts)
        let removal = RouteRemoval(
            routes: s.routes, shares: s.shares, links: s.links, groups: s.groups, paths: s.paths, buckets: s.buckets,
            efforts: segmentEfforts, bestEfforts: bestEfforts)
        let trips = DeviceTrips(
            devices: s.devices, routes: s.routes, buckets: s.buckets, finisher: finisher, removal: removal, clock: clock
        )
        let routePictures = RoutePictures(buckets: s.buckets, tiles: mapTiles)
        let costly = CostlyWork(threads: .requests)
        self.costly = costly

        operations = OperationsController(health: s.health, openAPIDocument: openAPIDocument, registry: registry)
        users = UsersController(users: s.users, auth: auth, clock: clock)
        privacyZones = PrivacyZonesController(auth: auth, users: s.users)
        routes = RoutesController(
            auth: auth, access: access, routes: s.routes, buckets: s.buckets, idempotency: s.idempotency,
            locks: locks, links: s.links, groups: s.groups, paths: s.paths, viewer: viewer, clock: clock,
            efforts: segmentEfforts, bestEfforts: bestEfforts, finisher: finisher, removal: removal)
        routeList = RouteListController(
            auth: auth, routes: s.routes, access: access, users: s.users, viewer: viewer)
        downloads = DownloadsController(auth: auth, access: access, buckets: s.buckets, viewer: viewer)
        shares = SharesController(
            auth: auth, access: access, users: s.users, routes: s.routes, shares: s.shares, viewer: viewer)
        links = LinksController(
            auth: auth, access: access, links: s.links, viewer: viewer, buckets: s.buckets, clock: clock)
        similar = SimilarController(auth: auth, access: access, similar: similarRoutes, costly: costly)
        groups = GroupsController(
            auth: auth, access: access, groups: s.groups, viewer: viewer, users: s.users,
            similar: similarRoutes, costly: costly, clock: clock)
        groupStats = GroupStatsController(auth: auth, access: access, groups: s.groups, costly: costly)
        pictures = PicturesController(
            auth: auth, access: access, pictures: routePictures, costly: costly)
        pages = PagesController(
            access: access, users: s.users, pictures: routePictures, costly: costly)
        segments = SegmentsController(
            auth: auth, access: access, viewer: viewer, buckets: s.buckets, segments: s.segments,
            efforts: segmentEfforts, clock: clock)
        records = RecordsController(
            auth: auth, access: access, bestEfforts: s.bestEfforts, users: s.users)
        trainingLog = TrainingLogController(auth: auth, routes: s.routes, costly: costly)
        segmentBoards = SegmentBoardsController(
            auth: auth,
            boards: SegmentBoards(segments: s.segments, efforts: s.efforts, access: access, users: s.users))
        live = LiveController(
            auth: auth, access: access, hub: hub, buckets: s.buckets, viewer: viewer, clock: clock)
        devices = DevicesController(
            auth: auth, users: s.users, devices: s.devices, trips: trips, locks: locks, clock: clock,
            publicURL: publicURL)
        track = TrackController(
            devices: DeviceAuthenticator(devices: s.devices),
            recorder: DeviceRecorder(
                devices: s.devices, routes: s.routes, buckets: s.buckets, shares: s.shares, trips: trips, locks: locks,
                clock: clock, recent: RecentRoutes()))
        sweeper = IdleRouteSweeper(
            devices: s.devices, trips: trips, locks: locks, clock: clock, interval: sweepInterval, logger: logger)
        imports = ImportsController(auth: auth, imports: s.imports, chunks: s.archives, clock: clock)
        export = ExportController(
            auth: auth, routes: s.routes, buckets: s.buckets, links: s.links, groups: s.groups, segments: s.segments,
            devices: s.devices, access: access)
        importWorker = ImportWorker(
            imports: s.imports, chunks: s.archives,
            importer: ImportedRoutes(
                routes: s.routes, buckets: s.buckets, efforts: segmentEfforts, bestEfforts: bestEfforts, clock: clock),
            clock: clock, interval: .seconds(1), logger: logger)
        let accountRemoval = AccountRemoval(
            users: s.users, routes: s.routes, removal: removal, shares: s.shares, groups: s.groups,
            segments: s.segments, efforts: segmentEfforts, devices: s.devices, idempotency: s.idempotency,
            bestEfforts: s.bestEfforts, imports: s.imports, archives: s.archives, clock: clock)
        account = AccountController(auth: auth, removal: accountRemoval)
        pendingRemovals = PendingAccountRemovals(
            users: s.users, removal: accountRemoval, clock: clock, interval: sweepInterval, logger: logger)
        backfill = BestEffortsBackfill(
            routes: s.routes, progress: s.bestEffortsMigration, keeper: bestEfforts, clock: clock, logger: logger)
    }
}
