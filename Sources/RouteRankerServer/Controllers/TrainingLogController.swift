import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// The training log (API.md "Best efforts, records and the training log"): totals of my finished
/// routes by ISO week, month or year in a time zone, as JSON and as a bar chart. The figures come
/// from the route documents' stored metrics (one projected, indexed read); Core does the calendar.
struct TrainingLogController: Sendable {
    let auth: Authenticator
    let routes: RouteRepository
    /// The chart is drawn as costly work of its reader.
    let costly: CostlyWork

    /// `GET /v1/users/me/log?period=&tz=&activity=&from=&to=`.
    func log(_ request: Request, _ context: AppRequestContext) async throws -> TrainingLogView {
        let query = try await entries(request, user: try await auth.user(request))
        return TrainingLogView(
            period: query.period.rawValue, tz: query.tzName,
            items: query.entries.map {
                TrainingLogItem(
                    key: $0.key, start: $0.startText, count: $0.count, distanceM: $0.distance,
                    movingTimeS: $0.movingTime, elevationGainM: $0.elevationGain)
            })
    }

    /// `GET /v1/users/me/log.svg?period=&tz=&activity=&metric=`: the log as a bar chart.
    func chart(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let user = try await auth.user(request)
        let query = try await entries(request, user: user)
        let metric: LogMetric
        if let raw = request.query["metric"] {
            guard let value = LogMetric(rawValue: raw) else {
                throw APIError.invalid("'metric' must be one of distance, time, elevation", field: "metric")
            }
            metric = value
        } else {
            metric = .distance
        }
        let width = try PictureQuery.width(request)
        let svg = try await costly.run(user: user.id) {
            TrainingLogChart.svg(
                entries: query.entries, period: query.period, timeZone: query.timeZone, metric: metric,
                width: Double(width), title: "Training log by \(query.period.rawValue)")
        }
        return SVGResponse(svg: svg, etag: nil)
    }

    /// The request's parameters, checked, and the log they ask for.
    private func entries(_ request: Request, user: UserRecord) async throws -> (
        period: LogPeriod, tzName: String, timeZone: TimeZone, entries: [TrainingLogEntry]
    ) {
        let query = request.query
        let period: LogPeriod
        if let raw = query["period"] {
            guard let value = LogPeriod(rawValue: raw) else {
                throw APIError.invalid("'period' must be one of week, month, year", field: "period")
            }
            period = value
        } else {
            period = .week
        }
        let tzName = query["tz"] ?? "UTC"
        guard let timeZone = TrainingLog.timeZone(named: tzName) else {
            throw APIError.invalid("'tz' must be an IANA time zone name, e.g. Europe/Berlin", field: "tz")
        }
        let activity = try query["activity"].map { try RouteRules.activity($0) }
        let from = try Self.instant(query["from"], field: "from")
        let to = try Self.instant(query["to"], field: "to")
        let figures = try await routes.logFigures(owner: user.id, from: from, to: to, activity: activity)
        let entries = TrainingLog.aggregate(
            figures.map {
                (
                    startedAt: $0.startedAt.timeIntervalSince1970, distance: $0.distanceM,
                    movingTime: $0.movingTimeS, elevationGain: $0.elevationGainM
                )
            }, period: period, timeZone: timeZone)
        return (period, tzName, timeZone, entries)
    }

    /// An RFC 3339 bound, or `400` naming the field.
    private static func instant(_ raw: String?, field: String) throws -> Date? {
        guard let raw else { return nil }
        guard let t = RFC3339.parse(raw) else {
            throw APIError.invalid("'\(field)' must be an RFC 3339 time, e.g. 2026-01-01T00:00:00Z", field: field)
        }
        return Date(timeIntervalSince1970: t)
    }
}

/// `GET /v1/users/me/log`.
struct TrainingLogView: APIResponse {
    var period: String
    var tz: String
    var items: [TrainingLogItem]
}

/// One period of the log.
struct TrainingLogItem: Encodable, Sendable {
    var key: String
    /// The period's first instant, RFC 3339 with the zone's offset.
    var start: String
    var count: Int
    var distanceM: Double
    var movingTimeS: Double
    var elevationGainM: Double
}
