import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import RouteRankerCore
import RouteRankerServer

/// `routeranker serve`: runs the HTTP server until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the RouteRanker HTTP server.")

    @Option(help: "Interface to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (default: $PORT, else 8080).")
    var port: Int?

    @Option(name: .customLong("mongodb-uri"), help: "MongoDB connection string (default: $MONGODB_URI).")
    var mongoDBURI: String?

    @Option(help: "Database name (default: $ROUTERANKER_DATABASE, else routeranker).")
    var database: String?

    @Option(
        name: .customLong("public-url"),
        help:
            "The server's public URL, for the addresses devices give to tracker apps (default: $ROUTERANKER_PUBLIC_URL, else each request's Host)."
    )
    var publicURL: String?

    @Option(
        name: .customLong("tile-url"),
        help:
            "A map tile server for the web app's and link pages' maps, e.g. https://tile.example.org/{z}/{x}/{y}.png (default: $ROUTERANKER_TILE_URL, else none: maps without tiles, nothing from another origin)."
    )
    var tileURL: String?

    @Option(
        name: .customLong("tile-attribution"),
        help:
            "The tile server's credit, shown under every map over its tiles, e.g. \"© OpenStreetMap contributors\" (default: $ROUTERANKER_TILE_ATTRIBUTION; required with --tile-url)."
    )
    var tileAttribution: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(
        help:
            "How Linux schedules the server's threads: batch (SCHED_BATCH, no preemption when one thread wakes another) or unchanged (as started, e.g. by chrt)."
    )
    var scheduling: ThreadScheduling = .batch

    @Option(
        name: .customLong("command-log"),
        help:
            "Append the shape of every database command to this file, one JSON line each, for scripts/check-shard-plan (default: $ROUTERANKER_COMMAND_LOG; none)."
    )
    var commandLog: String?

    /// The tile server the options (or the environment) name, if any.
    func mapTiles(_ environment: [String: String]) throws -> MapTiles? {
        guard let template = tileURL ?? environment["ROUTERANKER_TILE_URL"], !template.isEmpty else {
            if tileAttribution != nil { throw ValidationError("--tile-attribution needs --tile-url") }
            return nil
        }
        do {
            return try MapTiles(
                template: template, attribution: tileAttribution ?? environment["ROUTERANKER_TILE_ATTRIBUTION"] ?? "")
        } catch {
            throw ValidationError("--tile-url: \(error.description)")
        }
    }

    func validate() throws { _ = try mapTiles(ProcessInfo.processInfo.environment) }

    func run() async throws {
        // First, so that the threads the server starts below inherit the policy.
        let schedulingFailure = scheduling.apply()
        let environment = ProcessInfo.processInfo.environment
        var configuration = AppConfiguration(
            host: host,
            port: port ?? environment["PORT"].flatMap(Int.init) ?? 8080,
            mongoDBURI: mongoDBURI ?? environment["MONGODB_URI"] ?? "mongodb://127.0.0.1:27017/",
            database: database ?? environment["ROUTERANKER_DATABASE"] ?? "routeranker",
            logLevel: logLevel,
            publicURL: publicURL ?? environment["ROUTERANKER_PUBLIC_URL"],
            mapTiles: try mapTiles(environment)
        )
        configuration.commandLog =
            commandLog ?? environment["ROUTERANKER_COMMAND_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        // swift-log's stream handler, with request metadata formatted only for lines written
        // (see `LazyMetadataLogHandler`).
        LoggingSystem.bootstrap { label in LazyMetadataLogHandler(StreamLogHandler.standardError(label: label)) }
        var logger = Logger(label: "routeranker")
        logger.logLevel = configuration.logLevel
        if let schedulingFailure { logger.warning("scheduling: \(schedulingFailure); the server runs without it") }
        // One registry for the server's own metrics and for any library that reports through
        // swift-metrics; /metrics prints it.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let app = try buildApplication(configuration, logger: logger, registry: registry)
        // runService installs SIGINT/SIGTERM handlers and shuts down gracefully.
        try await app.runService()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension ThreadScheduling: ExpressibleByArgument {}
