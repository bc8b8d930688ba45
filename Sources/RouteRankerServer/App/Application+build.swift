import Hummingbird
import Logging
import Mongo
import Prometheus

/// Builds the application from its parts: the database client (a lifecycle service), the
/// controllers, the route table and the middleware. Start it with `runService()`.
public func buildApplication(
    _ configuration: AppConfiguration, logger: Logger, registry: PrometheusCollectorRegistry = .init()
) throws -> some ApplicationProtocol {
    let client = try MongoClient(uri: configuration.mongoDBURI, logger: logger)
    let database = MongoDatabase(client: client, name: configuration.database)
    let openAPIDocument = try OpenAPIDocument.load()
    // The process's one change stream, fanned out to its live followers (after the client in
    // `services`, so it stops before the client does).
    let hub = LiveHub(database: database, logger: logger)
    let trackers = TrackerWiring(database: database, clock: configuration.clock, publicURL: configuration.publicURL)
    let endpoints = routeTable(
        Controllers(
            database: database, clock: configuration.clock, similarCellBudget: configuration.similarCellBudget,
            registry: registry, openAPIDocument: openAPIDocument, hub: hub, trackers: trackers))

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: MetricsMiddleware(registry: registry))
    router.add(middleware: ErrorMiddleware(allowed: AllowedMethods(endpoints)))
    for endpoint in endpoints {
        router.on(RouterPath(endpoint.path), method: endpoint.method, use: endpoint.handler)
    }

    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [LingeringClose()], idleTimeout: .seconds(Limits.idleTimeoutSeconds))),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "RouteRanker"),
        services: [client, hub, trackers.sweeper(interval: configuration.sweepInterval, logger: logger)],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.notice("RouteRanker is listening on http://\(configuration.host):\(port)")
        },
        logger: logger
    )
    app.beforeServerStarts {
        try await Indexes.create(in: database, logger: logger)
        try await ShareRepository(database: database, clock: configuration.clock).addMissingReaders()
        let routes = RouteRepository(database: database)
        try await routes.starts.moveStartsOutOfRoutes(routes.collection, now: configuration.clock.now)
    }
    return ApplicationOnDatabaseThreads(base: app, executor: client.executor)
}
