import Foundation

/// The periods the training log adds routes up by (`GET /v1/users/me/log?period=`).
public enum LogPeriod: String, Sendable, CaseIterable {
    /// ISO 8601 weeks, Monday first, keyed by the week-numbering year: `2026-W47`.
    case week
    /// Calendar months: `2026-11`.
    case month
    /// Calendar years: `2026`.
    case year

    /// The calendar unit whose interval is one period.
    var component: Calendar.Component {
        switch self {
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
    }
}

/// One period of the training log and the totals of the routes that started in it.
public struct TrainingLogEntry: Sendable, Hashable {
    /// `2026-W47` (ISO week-numbering year and week), `2026-11` or `2026`.
    public var key: String
    /// The period's first instant in the log's time zone (local midnight, or the day's first
    /// instant where midnight does not exist).
    public var start: Date
    /// ``start`` as the API writes it: RFC 3339 with milliseconds and the zone's offset at that
    /// instant, `2026-11-23T00:00:00.000+01:00` (see ``TrainingLog/format(_:in:)``).
    public var startText: String
    /// How many routes started in the period.
    public var count: Int
    /// Their total distance in metres.
    public var distance: Double
    /// Their total moving time in seconds.
    public var movingTime: Double
    /// Their total elevation gain in metres (routes without one add nothing).
    public var elevationGain: Double

    public init(
        key: String, start: Date, startText: String, count: Int, distance: Double, movingTime: Double,
        elevationGain: Double
    ) {
        self.key = key
        self.start = start
        self.startText = startText
        self.count = count
        self.distance = distance
        self.movingTime = movingTime
        self.elevationGain = elevationGain
    }
}

/// The training log: finished routes added up by the week, month or year their start falls in, in
/// a time zone of the reader's choosing. Pure: the routes come in, the periods go out.
public enum TrainingLog {
    /// One route as the log sees it.
    public typealias Route = (startedAt: Double, distance: Double, movingTime: Double, elevationGain: Double?)

    /// The totals of `routes` (`startedAt` in Unix seconds) by the `period` of `timeZone` their
    /// start falls in, oldest first; periods without a route are left out. A route whose start is
    /// not finite belongs to no period and is left out too.
    public static func aggregate(_ routes: [Route], period: LogPeriod, timeZone: TimeZone) -> [TrainingLogEntry] {
        let calendar = calendar(timeZone)
        // In time order, consecutive routes mostly share a period: one calendar lookup per period
        // rather than per route, and the entries come out oldest first without a second sort.
        let sorted = routes.filter { $0.startedAt.isFinite }.sorted { $0.startedAt < $1.startedAt }
        var entries: [TrainingLogEntry] = []
        var end = -Double.infinity
        for route in sorted {
            if route.startedAt >= end {
                let date = Date(timeIntervalSince1970: route.startedAt)
                guard let interval = calendar.dateInterval(of: period.component, for: date) else { continue }
                end = interval.end.timeIntervalSince1970
                entries.append(
                    TrainingLogEntry(
                        key: key(interval.start, period: period, calendar: calendar), start: interval.start,
                        startText: format(interval.start, in: timeZone), count: 0, distance: 0, movingTime: 0,
                        elevationGain: 0))
            }
            entries[entries.count - 1].count += 1
            entries[entries.count - 1].distance += route.distance
            entries[entries.count - 1].movingTime += route.movingTime
            entries[entries.count - 1].elevationGain += route.elevationGain ?? 0
        }
        return entries
    }

    /// Every period of `timeZone` from the one containing `from` through the one containing `to`,
    /// oldest first, whether or not a route falls in it (the chart's empty slots), but at most the
    /// `latest` periods up to `to`. Empty when `to` is before `from`.
    ///
    /// `latest` bounds the work by what is drawn, not by the dates: routes in 1970 and in 9999
    /// would otherwise be 420,000 weeks to list (issue 43).
    public static func periods(
        from: Date, to: Date, period: LogPeriod, timeZone: TimeZone, latest: Int = .max
    ) -> [(key: String, start: Date)] {
        let calendar = calendar(timeZone)
        guard from <= to, latest > 0 else { return [] }
        var first = from
        if latest < .max, let earliest = calendar.date(byAdding: period.component, value: -(latest - 1), to: to),
            earliest > from
        {
            first = earliest
        }
        guard var interval = calendar.dateInterval(of: period.component, for: first) else { return [] }
        var periods: [(key: String, start: Date)] = []
        // (One period more than `latest` at most, in case the calendar's arithmetic above was off
        // by one; the suffix keeps the latest.)
        while interval.start <= to, periods.count <= latest {
            periods.append((key(interval.start, period: period, calendar: calendar), interval.start))
            // Each period begins where the last one ended; the guard only stops a calendar that
            // would not move forward.
            guard let next = calendar.dateInterval(of: period.component, for: interval.end),
                next.start > interval.start
            else { break }
            interval = next
        }
        return periods.count > latest ? Array(periods.suffix(latest)) : periods
    }

    /// The zone called `name`, or nil when `name` is not a time zone's IANA name.
    ///
    /// Foundation's `TimeZone(identifier:)` alone is too lenient for the API's "an IANA name":
    /// on Linux it also takes offsets (`GMT+5`, `UTC+1`) and ambiguous abbreviations (`PST`, and
    /// `BST` as Bangladesh), and `TimeZone.knownTimeZoneIdentifiers` alone is too strict: it is
    /// ICU's list, which lacks current names such as `Asia/Kolkata` and `Etc/UTC`. So: `UTC`,
    /// any name in that list, and any `Area/Location` name (letters, digits, `_`, `-`, `+`, at
    /// most 64 characters) that Foundation knows under that very name.
    public static func timeZone(named name: String) -> TimeZone? {
        guard name == "UTC" || knownNames.contains(name) || isAreaLocation(name) else { return nil }
        guard let zone = TimeZone(identifier: name) else { return nil }
        // `UTC` is known as `GMT`; any other name must come back as itself (no rewriting).
        guard name == "UTC" || zone.identifier == name else { return nil }
        return zone
    }

    /// `date` as RFC 3339 with milliseconds and `timeZone`'s offset at that instant,
    /// `2026-11-23T00:00:00.000+01:00`. UTC itself (`UTC`, `GMT` and the offset-zero `Etc/`
    /// names) is written with `Z`, as every other timestamp of the API; any other zone with its
    /// numeric offset, `+00:00` included (Europe/London in winter is not UTC). Offsets are whole
    /// minutes, as RFC 3339 has them: a historical offset with seconds (local mean time) is
    /// written truncated, and the local time shifted to match, so that the text is still `date`.
    public static func format(_ date: Date, in timeZone: TimeZone) -> String {
        let offsetSeconds = timeZone.secondsFromGMT(for: date)
        let minutes = offsetSeconds / 60
        let local = RFC3339.formatMilliseconds(date.timeIntervalSince1970 + Double(minutes * 60))
        let isUTC =
            timeZone.identifier == "GMT" || timeZone.identifier == "UTC"
            || (timeZone.identifier.hasPrefix("Etc/") && offsetSeconds == 0)
        if isUTC && minutes == 0 { return local }
        let sign = minutes < 0 ? "-" : "+"
        let hours = abs(minutes) / 60
        let rest = abs(minutes) % 60
        return local.dropLast() + sign + (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// The ISO 8601 calendar in `timeZone`.
    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        // ISO 8601's weeks, stated rather than trusted to the platform's defaults: Monday first,
        // and week 1 is the one with the year's first Thursday (at least 4 of its days).
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }

    /// The key of the period that begins at `start`.
    static func key(_ start: Date, period: LogPeriod, calendar: Calendar) -> String {
        switch period {
        case .week:
            // The week-numbering year, not the calendar year: 2027-01-01 is in 2026-W53.
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: start)
            return pad(parts.yearForWeekOfYear ?? 0, 4) + "-W" + pad(parts.weekOfYear ?? 0, 2)
        case .month:
            let parts = calendar.dateComponents([.year, .month], from: start)
            return pad(parts.year ?? 0, 4) + "-" + pad(parts.month ?? 0, 2)
        case .year:
            return pad(calendar.component(.year, from: start), 4)
        }
    }

    /// ICU's zone names, read once: Foundation builds the list afresh on every call.
    private static let knownNames = Set(TimeZone.knownTimeZoneIdentifiers)

    /// Whether `name` has the shape of an IANA `Area/Location[/Sub]` name.
    private static func isAreaLocation(_ name: String) -> Bool {
        guard name.utf8.count <= 64 else { return false }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.utf8.first, (65...90).contains(first) || (97...122).contains(first) else {
                return false
            }
            return part.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            }
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
