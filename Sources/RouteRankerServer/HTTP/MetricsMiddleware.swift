import Hummingbird
import Prometheus
import Synchronization

/// Counts requests by method, route template and status, and records their duration by route,
/// in the application's own Prometheus registry (served at `/metrics`).
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    private let metrics: RequestMetrics

    init(registry: PrometheusCollectorRegistry) {
        metrics = RequestMetrics(registry: registry)
    }

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
        metrics.counter(method: method, route: route, status: Int(response.status.code)).increment()
        metrics.histogram(method: method, route: route).record(ContinuousClock.now - start)
        return response
    }
}

/// The request counters and duration histograms made so far, by their label values.
///
/// The registry hands back the same metric for the same name and labels, but finding it there
/// means building its name, help text and label list on every request (1–2 % of a route summary's
/// CPU, `perf`); here it is one dictionary lookup. The labels are bounded: route templates (or
/// `unmatched`), status codes, and methods.
final class RequestMetrics: Sendable {
    private struct CounterKey: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    private struct HistogramKey: Hashable {
        var method: String
        var route: String
    }

    private let registry: PrometheusCollectorRegistry
    private let counters = Mutex<[CounterKey: Counter]>([:])
    private let histograms = Mutex<[HistogramKey: DurationHistogram]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// `http_requests_total{method,route,status}`.
    func counter(method: String, route: String, status: Int) -> Counter {
        let key = CounterKey(method: method, route: route, status: status)
        if let counter = counters.withLock({ $0[key] }) { return counter }
        let counter = registry.makeCounter(
            descriptor: MetricsMiddleware.requests,
            labels: [("method", method), ("route", route), ("status", String(status))])
        counters.withLock { $0[key] = counter }
        return counter
    }

    /// `http_request_duration_seconds{method,route}`.
    func histogram(method: String, route: String) -> DurationHistogram {
        let key = HistogramKey(method: method, route: route)
        if let histogram = histograms.withLock({ $0[key] }) { return histogram }
        let histogram = registry.makeDurationHistogram(
            descriptor: MetricsMiddleware.duration, labels: [("method", method), ("route", route)],
            buckets: MetricsMiddleware.buckets)
        histograms.withLock { $0[key] = histogram }
        return histogram
    }
}
