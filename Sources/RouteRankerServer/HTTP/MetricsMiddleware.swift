import Hummingbird
import Prometheus

/// Counts requests by method, route template and status, and records their duration by route,
/// in the application's own Prometheus registry (served at `/metrics`).
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let registry: PrometheusCollectorRegistry

    /// Buckets from 1 ms to 10 s: ingest of large routes is slow by nature, reads are fast.
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        .seconds(10),
    ]

    // Computed: `MetricNameDescriptor` is not `Sendable`, so it cannot be a stored static.
    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_requests", unitName: "total", helpText: "HTTP requests by method, route and status.")
    }
    static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_request_duration", unitName: "seconds",
            helpText: "Time to the response head, by method and route.")
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        // Unmatched paths share one label so that scanners cannot blow up the label space.
        let route = context.endpointPath ?? "unmatched"
        let method = request.method.rawValue
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [("method", method), ("route", route), ("status", String(response.status.code))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.duration, labels: [("method", method), ("route", route)],
            buckets: Self.buckets
        ).record(ContinuousClock.now - start)
        return response
    }
}
