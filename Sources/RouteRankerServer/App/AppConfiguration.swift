import Logging
import RouteRankerCore
import RouteRankerModels

/// Everything the server needs to know to start: where to listen and where the database is.
public struct AppConfiguration: Sendable {
    /// Interface to bind, e.g. `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// TCP port to listen on; `0` picks a free one.
    public var port: Int
    /// A MongoDB connection string. Timeouts belong here (`serverSelectionTimeoutMS`, `socketTimeoutMS`).
    public var mongoDBURI: String
    /// The database that holds RouteRanker's collections.
    public var database: String
    /// Level for the application's own log.
    public var logLevel: Logger.Level
    /// The clock of recorded timestamps.
    public var clock: WallClock
    /// The most Fréchet cells one `similar` request may scan over all its pairs (`422` past it).
    public var similarCellBudget: Int
    /// The server's public URL (e.g. `https://rr.example.org`), for the absolute addresses a device
    /// gives to paste into tracker apps; `nil`: built from each request's `Host`.
    public var publicURL: String?
    /// The operator's map tile server (`--tile-url`, `--tile-attribution`): maps in the web app
    /// and on link pages are drawn over it; `nil` (the default): no tiles, no other origin.
    public var mapTiles: MapTiles?
    /// How often the idle sweep finishes device routes that stopped receiving points.
    public var sweepInterval: Duration = .seconds(10)
    /// A file to append the shape of every database command to, for the shard plan's check
    /// (`scripts/check-shard-plan`); `nil` (the default): none.
    public var commandLog: String?

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        mongoDBURI: String = "mongodb://127.0.0.1:27017/",
        database: String = "routeranker",
        logLevel: Logger.Level = .info,
        clock: WallClock = .system,
        similarCellBudget: Int = 40_000_000,
        publicURL: String? = nil,
        mapTiles: MapTiles? = nil
    ) {
        self.host = host
        self.port = port
        self.mongoDBURI = mongoDBURI
        self.database = database
        self.logLevel = logLevel
        self.clock = clock
        self.similarCellBudget = similarCellBudget
        self.publicURL = publicURL
        self.mapTiles = mapTiles
    }
}

/// Limits that the HTTP contract fixes.
enum Limits {
    /// JSON and GPX bodies larger than this are `413` (streams are exempt).
    static let maxBodyBytes = 16 * 1024 * 1024
    /// Connections idle for longer than this are closed: Hummingbird has no idle timeout by default.
    static let idleTimeoutSeconds: Int64 = 75
    /// How long a client should wait before retrying while the database is unreachable.
    static let retryAfterSeconds = 2
}
