import Foundation
import Logging
import Mongo
import RouteRankerModels
import ServiceLifecycle

/// The database the app keeps its records in: one client (a lifecycle service, whose threads also
/// run the server's tasks) and the repositories over it, each made once. The composition root
/// hands these to the services and controllers; nothing outside this target sees the driver.
package struct Storage: Sendable {
    package let users: UserRepository
    package let routes: RouteRepository
    package let shares: ShareRepository
    package let links: LinkRepository
    package let buckets: PointBuckets
    package let groups: GroupRepository
    package let paths: PathRepository
    package let segments: SegmentRepository
    package let efforts: EffortRepository
    package let bestEfforts: BestEffortRepository
    package let imports: ImportRepository
    package let archives: ArchiveChunks
    /// How far the computation of best efforts for routes stored before them has got.
    package let bestEffortsMigration: MigrationProgress
    package let areas: RouteAreaRepository
    package let devices: DeviceRepository
    package let idempotency: IdempotencyRepository
    /// The reads a hot request starts with (caller and route together, coalesced).
    package let reads: RequestReads
    /// The live hub's change streams.
    package let changeFeeds: RouteChangeFeeds
    /// What `/readyz` asks.
    package let health: DatabaseHealth
    private let database: MongoDatabase

    /// The name the server's database connections give in their handshake (their change streams
    /// add "-stream"): what the database's logs, and fault injection in tests, filter on.
    package static let appName = "RouteRanker"

    /// The repositories of `database`.
    package init(database: MongoDatabase, clock: WallClock) {
        self.database = database
        users = UserRepository(database: database)
        routes = RouteRepository(database: database)
        shares = ShareRepository(database: database, clock: clock)
        links = LinkRepository(database: database)
        buckets = PointBuckets(database: database)
        groups = GroupRepository(database: database)
        paths = PathRepository(database: database, buckets: buckets)
        segments = SegmentRepository(database: database)
        efforts = EffortRepository(database: database)
        bestEfforts = BestEffortRepository(database: database)
        imports = ImportRepository(database: database)
        archives = ArchiveChunks(database: database)
        bestEffortsMigration = MigrationProgress(database: database, name: "best_efforts")
        areas = RouteAreaRepository(database: database)
        devices = DeviceRepository(database: database)
        idempotency = IdempotencyRepository(database: database)
        reads = RequestReads(routes: routes)
        changeFeeds = RouteChangeFeeds(database: database)
        health = DatabaseHealth(database: database)
    }

    /// Storage in database `name` of the deployment at `uri` (a MongoDB connection string). The
    /// client connects lazily: run `service` (a lifecycle service) for as long as the app runs.
    /// `commandLog`: a file to append the shape of every command to (`CommandShapeLog`), for the
    /// shard plan's check; a file that cannot be opened is an error.
    package static func connect(
        uri: String, name: String, clock: WallClock, logger: Logger, commandLog: String? = nil
    ) throws -> Storage {
        var observer: MongoCommandObserver?
        if let commandLog {
            guard let log = CommandShapeLog(path: commandLog) else { throw CommandLogUnavailable(path: commandLog) }
            observer = log.observer
        }
        let client = try MongoClient(uri: uri, logger: logger, appName: Self.appName, observer: observer)
        return Storage(database: MongoDatabase(client: client, name: name), clock: clock)
    }

    /// The client, a lifecycle service: it closes the connections at shutdown.
    package var service: any Service { database.client }

    /// The client's threads, where blocking driver calls run; the server runs its tasks there too,
    /// so that a handler makes its database calls without a thread hop.
    package var executor: any TaskExecutor { database.client.executor }

    /// Makes the database ready for this version: every collection's indexes (waiting up to 60 s
    /// for a database that is still starting), then the migrations of records stored before.
    package func prepare(now: Date, logger: Logger) async throws {
        try await Indexes.create(in: database, logger: logger)
        try await shares.addMissingReaders()
        try await routes.starts.moveStartsOutOfRoutes(routes.collection, now: now)
    }
}

/// The command log named for `Storage.connect` cannot be opened.
package struct CommandLogUnavailable: Error, CustomStringConvertible {
    package let path: String

    package var description: String { "the command log \(path) cannot be opened for appending" }
}
