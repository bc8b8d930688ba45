import Hummingbird
import Logging
import Prometheus
import RouteRankerStorage

/// Builds the application from its parts: storage (whose client is a lifecycle service), the one
/// object graph of services and controllers (`Controllers`), the route table and the middleware.
/// Start it with `runService()`.
public func buildApplication(
    _ configuration: AppConfiguration, logger: Logger, registry: PrometheusCollectorRegistry = .init()
) throws -> some ApplicationProtocol {
    let storage = try Storage.connect(
        uri: configuration.mongoDBURI, name: configuration.database, clock: configuration.clock, logger: logger,
        commandLog: configuration.commandLog)
    let openAPIDocument = try OpenAPIDocument.load()
    // The process's one change stream, fanned out to its live followers (after the client in
    // `services`, so it stops before the client does).
    let hub = LiveHub(feeds: storage.changeFeeds, logger: logger) { [clock = configuration.clock] in
        try? await clock.sleep(for: $0)
    }
    let controllers = Controllers(
        storage: storage, hub: hub, clock: configuration.clock, similarCellBudget: configuration.similarCellBudget,
        registry: registry, openAPIDocument: openAPIDocument, publicURL: configuration.publicURL,
        mapTiles: configuration.mapTiles,
        sweepInterval: configuration.sweepInterval, logger: logger)
    let router = makeRouter(routeTable(controllers), registry: registry)

    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [LingeringClose(), ProtocolErrorAnswer()],
                idleTimeout: .seconds(Limits.idleTimeoutSeconds))),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "RouteRanker"),
        services: [
            storage.service, hub, controllers.sweeper, controllers.backfill, controllers.pendingRemovals,
            controllers.importWorker,
        ],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.notice("RouteRanker is listening on http://\(configuration.host):\(port)")
        },
        logger: logger
    )
    app.beforeServerStarts {
        try await storage.prepare(now: configuration.clock.now, logger: logger)
    }
    return ApplicationOnDatabaseThreads(base: app, executor: storage.executor)
}

/// The router of `endpoints`, behind the middleware every request passes: the headers every answer
/// carries (outermost, so that error answers get them too), metrics, then the one error → HTTP
/// mapping.
func makeRouter(_ endpoints: [Endpoint], registry: PrometheusCollectorRegistry) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ResponseHeadersMiddleware())
    router.add(middleware: MetricsMiddleware(registry: registry))
    router.add(middleware: ErrorMiddleware(allowed: AllowedMethods(endpoints)))
    // `HEAD` wherever `GET` is (API.md, HTTP), from the same row.
    for endpoint in endpoints + endpoints.compactMap(\.head) {
        router.on(RouterPath(endpoint.path), method: endpoint.method, use: endpoint.handler)
    }
    return router
}
