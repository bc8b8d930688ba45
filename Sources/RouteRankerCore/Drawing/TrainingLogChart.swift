import Foundation

/// What the training log's chart shows per period (`GET /v1/users/me/log.svg?metric=`).
public enum LogMetric: String, Sendable, CaseIterable {
    /// Total distance, in km.
    case distance
    /// Total moving time, in hours and minutes.
    case time
    /// Total elevation gain, in m.
    case elevation
}

/// The training log as a bar chart: one bar per period from the first entry's to the last one's,
/// periods without a route drawn as empty slots (bars of height 0), so that gaps look like gaps;
/// at most the latest ``maxPeriods`` periods.
public enum TrainingLogChart {
    /// The most bars a chart draws: ten years of weeks. Past that a bar is under a pixel wide at
    /// any width a screen shows, and the work would grow with the dates' span instead of with the
    /// routes (a route in 1970 and one in 9999 are 420,000 weeks apart); earlier periods are there
    /// with `from` and `to`.
    public static let maxPeriods = 520

    /// The chart's height for a picture `width` pixels wide.
    public static func height(width: Double) -> Double { max(200, (width * 0.45).rounded()) }

    /// The SVG of `entries` (those of ``TrainingLog/aggregate(_:period:timeZone:)`` for `period`
    /// and `timeZone`) on `metric`, `width` pixels wide; without entries, an empty frame saying
    /// "No routes".
    public static func svg(
        entries: [TrainingLogEntry], period: LogPeriod, timeZone: TimeZone, metric: LogMetric, width: Double,
        title: String
    ) -> String {
        let height = height(width: width)
        let sorted = entries.sorted { $0.start < $1.start }
        let slots: [(key: String, entry: TrainingLogEntry?)]
        if let first = sorted.first, let last = sorted.last {
            let byKey = Dictionary(sorted.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            slots = TrainingLog.periods(
                from: first.start, to: last.start, period: period, timeZone: timeZone, latest: maxPeriods
            )
            .map { ($0.key, byKey[$0.key]) }
        } else {
            slots = []
        }
        let values = slots.map { $0.entry.map { shown(metric, $0) } ?? 0 }
        // An axis from zero, with some height even when every value is zero.
        let top = values.max().flatMap { $0 > 0 ? $0 : nil } ?? fallbackMax(metric)
        let yTicks = metric == .time ? AxisTicks.duration(min: 0, max: top) : AxisTicks(min: 0, max: top)
        let yLabel = { (value: Double) in label(metric, value, step: yTicks.step) }
        // Room for the longest tick label: "12 h 30 min" is wider than the other charts' numbers.
        let longest = yTicks.values.map { yLabel($0).count }.max() ?? 0
        let routes = slots.reduce(0) { $0 + ($1.entry?.count ?? 0) }
        var svg = SVGWriter(
            width: width, height: height, title: title,
            description: description(metric: metric, period: period, timeZone: timeZone, slots: slots, routes: routes))
        svg.element(
            "rect", ["class": "background", "width": .number(width), "height": .number(height), "fill": "#fff"])
        let frame = ChartFrame(
            width: width, height: height, yTicks: yTicks, xTicks: nil, leftMargin: max(64, Double(longest) * 7 + 14))
        frame.draw(
            &svg, xTitle: xTitle(period, timeZone: timeZone), yTitle: yTitle(metric), xLabel: { _ in "" },
            yLabel: yLabel)
        guard !slots.isEmpty else {
            svg.element(
                "text",
                [
                    "class": "empty", "x": .number((frame.left + frame.right) / 2),
                    "y": .number((frame.top + frame.bottom) / 2), "text-anchor": "middle", "fill": "#555",
                ], text: "No routes")
            return svg.finish()
        }
        let column = (frame.right - frame.left) / Double(slots.count)
        let barWidth = max(1, column * 0.7)
        // Every k-th period labelled, k such that labels (about 7 px a character) do not overlap.
        let labelWidth = Double(slots.map(\.key.count).max() ?? 4) * 7 + 8
        // (At most every slot: a column of no width, from a picture too narrow, gives ∞ here.)
        let labelEvery = (labelWidth / column).clampedInt(in: 1...max(1, slots.count), rounding: .up)
        svg.open("g", ["class": "bars", "fill": "#2563eb"])
        for (index, slot) in slots.enumerated() {
            let centre = frame.left + column * (Double(index) + 0.5)
            let value = values[index]
            // A period with something to show gets at least a pixel, so that it does not look empty.
            let barHeight = value > 0 ? max(1, frame.py(0) - frame.py(value)) : 0
            svg.open(
                "rect",
                [
                    "class": "bar", "data-key": .text(slot.key), "data-count": .number(Double(slot.entry?.count ?? 0)),
                    "data-value": .number(value), "x": .number(centre - barWidth / 2),
                    "y": .number(frame.py(0) - barHeight), "width": .number(barWidth), "height": .number(barHeight),
                ])
            svg.element("title", [:], text: tooltip(slot.key, slot.entry, metric: metric))
            svg.close()
        }
        svg.close()
        svg.open("g", ["class": "periods", "fill": "#334155"])
        for (index, slot) in slots.enumerated() where index % labelEvery == 0 {
            svg.element(
                "text",
                [
                    "class": "x-tick", "x": .number(frame.left + column * (Double(index) + 0.5)),
                    "y": .number(frame.bottom + 16), "text-anchor": "middle",
                ], text: slot.key)
        }
        svg.close()
        return svg.finish()
    }

    /// The value drawn for `entry`: km, seconds (ticks in hours and minutes) or m.
    static func shown(_ metric: LogMetric, _ entry: TrainingLogEntry) -> Double {
        switch metric {
        case .distance: entry.distance / 1000
        case .time: entry.movingTime
        case .elevation: entry.elevationGain
        }
    }

    /// The axis's top when there is nothing above zero: 1 km, 1 h, 100 m.
    static func fallbackMax(_ metric: LogMetric) -> Double {
        switch metric {
        case .distance: 1
        case .time: 3600
        case .elevation: 100
        }
    }

    static func yTitle(_ metric: LogMetric) -> String {
        switch metric {
        case .distance: "Distance (km)"
        case .time: "Moving time (h, min)"
        case .elevation: "Elevation gain (m)"
        }
    }

    static func xTitle(_ period: LogPeriod, timeZone: TimeZone) -> String {
        let name =
            switch period {
            case .week: "Week (ISO, Monday first)"
            case .month: "Month"
            case .year: "Year"
            }
        return "\(name) · \(timeZone.identifier)"
    }

    /// A tick label with its unit: `12.5 km`, `1 h 30 min`, `250 m`. Zero has the unit of the
    /// step, so that every label says what it counts.
    static func label(_ metric: LogMetric, _ value: Double, step: Double) -> String {
        switch metric {
        case .distance: return ProfileChart.trimmed(value) + " km"
        case .elevation: return ProfileChart.trimmed(value) + " m"
        case .time:
            // A tick beyond 10¹⁵ s (only a damaged record's total reaches one) in whole hours.
            guard value < Double(HumanFormat.maxClockSeconds) else {
                return HumanFormat.fixed(value / 3600, decimals: 0) + " h"
            }
            let total = value.clampedInt(in: 0...HumanFormat.maxClockSeconds)
            guard total > 0 else { return step >= 3600 ? "0 h" : step >= 60 ? "0 min" : "0 s" }
            let parts = [(total / 3600, "h"), (total % 3600 / 60, "min"), (total % 60, "s")]
            return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: " ")
        }
    }

    /// What a bar says when pointed at: `2026-W47: 3 routes, 42.30 km`.
    static func tooltip(_ key: String, _ entry: TrainingLogEntry?, metric: LogMetric) -> String {
        guard let entry, entry.count > 0 else { return "\(key): no routes" }
        let routes = entry.count == 1 ? "1 route" : "\(entry.count) routes"
        let value =
            switch metric {
            case .distance: HumanFormat.distance(entry.distance)
            case .time: HumanFormat.duration(entry.movingTime)
            case .elevation: HumanFormat.elevation(entry.elevationGain)
            }
        return "\(key): \(routes), \(value)"
    }

    static func description(
        metric: LogMetric, period: LogPeriod, timeZone: TimeZone, slots: [(key: String, entry: TrainingLogEntry?)],
        routes: Int
    ) -> String {
        guard let first = slots.first, let last = slots.last else { return "No routes." }
        let what = "\(yTitle(metric)) per \(period.rawValue), \(timeZone.identifier)"
        return "\(what): \(slots.count) periods from \(first.key) to \(last.key), \(routes) routes."
    }
}
