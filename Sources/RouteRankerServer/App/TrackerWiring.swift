import Logging
import Mongo

/// The repositories and services behind devices and the tracker endpoints, built once and shared
/// by the controllers and the idle sweep (one lock table, so that a message and a sweep of the
/// same device in this process queue).
struct TrackerWiring: Sendable {
    let devices: DeviceRepository
    let trips: DeviceTrips
    let recorder: DeviceRecorder
    let locks: RouteLocks
    let clock: WallClock
    let publicURL: String?

    init(database: MongoDatabase, clock: WallClock, publicURL: String?) {
        let devices = DeviceRepository(database: database)
        let routes = RouteRepository(database: database)
        let buckets = PointBuckets(database: database)
        let shares = ShareRepository(database: database, clock: clock)
        // Device routes are ordinary routes: finishing one stores its segment efforts too.
        let efforts = SegmentEfforts(
            segments: SegmentRepository(database: database), efforts: EffortRepository(database: database),
            areas: RouteAreaRepository(database: database), routes: routes, buckets: buckets)
        let removal = RouteRemoval(
            routes: routes, shares: shares, links: LinkRepository(database: database),
            groups: GroupRepository(database: database), paths: PathRepository(database: database, buckets: buckets),
            buckets: buckets, efforts: efforts)
        let trips = DeviceTrips(
            devices: devices, routes: routes, buckets: buckets,
            finisher: RouteFinisher(routes: routes, efforts: efforts),
            removal: removal, clock: clock)
        let locks = RouteLocks()
        self.devices = devices
        self.trips = trips
        self.locks = locks
        self.clock = clock
        self.publicURL = publicURL
        recorder = DeviceRecorder(
            devices: devices, routes: routes, buckets: buckets, shares: shares, trips: trips, locks: locks,
            clock: clock,
            recent: RecentRoutes())
    }

    /// The idle sweep, a lifecycle service.
    func sweeper(interval: Duration, logger: Logger) -> IdleRouteSweeper {
        IdleRouteSweeper(devices: devices, trips: trips, locks: locks, clock: clock, interval: interval, logger: logger)
    }
}
