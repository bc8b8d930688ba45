import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The training log: ISO weeks across year ends, periods across daylight-saving changes, the same
/// instant in different zones' months, totals and order; and its chart, read back as XML.
@Suite struct TrainingLogTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    /// Unix seconds of an RFC 3339 text.
    static func t(_ text: String) -> Double { RFC3339.parse(text)! }

    static func route(
        _ text: String, distance: Double = 1000, movingTime: Double = 300, elevationGain: Double? = 10
    ) -> TrainingLog.Route {
        (t(text), distance, movingTime, elevationGain)
    }

    /// `key startText` of the one period `text` falls in.
    static func period(_ text: String, _ period: LogPeriod, _ zone: TimeZone) -> String? {
        let entries = TrainingLog.aggregate([route(text)], period: period, timeZone: zone)
        guard entries.count == 1 else { return nil }
        return entries[0].key + " " + entries[0].startText
    }

    @Test(arguments: [
        // 2026 begins on a Thursday: it has 53 weeks, and its first week begins in 2025.
        ("2026-01-01T12:00:00Z", "2026-W01", "2025-12-29T00:00:00.000Z"),
        ("2026-12-31T12:00:00Z", "2026-W53", "2026-12-28T00:00:00.000Z"),
        ("2027-01-01T00:00:00Z", "2026-W53", "2026-12-28T00:00:00.000Z"),
        ("2027-01-03T23:59:59.999Z", "2026-W53", "2026-12-28T00:00:00.000Z"),
        ("2027-01-04T00:00:00Z", "2027-W01", "2027-01-04T00:00:00.000Z"),
        // 2020 (a leap year beginning on a Wednesday) has a week 53 too, running into 2021.
        ("2020-12-31T08:00:00Z", "2020-W53", "2020-12-28T00:00:00.000Z"),
        ("2021-01-01T08:00:00Z", "2020-W53", "2020-12-28T00:00:00.000Z"),
        // A Monday in December already in the next year's first week.
        ("2024-12-30T08:00:00Z", "2025-W01", "2024-12-30T00:00:00.000Z"),
    ])
    func isoWeeksAcrossTheYearEnd(_ instant: String, _ key: String, _ start: String) {
        #expect(Self.period(instant, .week, Self.utc) == key + " " + start)
    }

    @Test func weeksAcrossTheSpringChangeInBerlin() {
        // Sunday 2026-03-29: clocks go from 02:00 CET to 03:00 CEST. Its week began on a Monday in
        // CET; the next begins in CEST.
        let routes = [
            Self.route("2026-03-29T23:30:00+02:00"),  // Sunday 23:30 local: still week 13
            Self.route("2026-03-30T00:00:00+02:00"),  // Monday midnight: week 14
            Self.route("2026-03-23T00:00:00+01:00"),  // the first instant of week 13
        ]
        let entries = TrainingLog.aggregate(routes, period: .week, timeZone: Self.berlin)
        #expect(entries.map(\.key) == ["2026-W13", "2026-W14"])
        #expect(entries.map(\.count) == [2, 1])
        #expect(entries.map(\.startText) == ["2026-03-23T00:00:00.000+01:00", "2026-03-30T00:00:00.000+02:00"])
        #expect(
            entries.map(\.start.timeIntervalSince1970) == [
                Self.t("2026-03-22T23:00:00Z"), Self.t("2026-03-29T22:00:00Z"),
            ])
        // A week one hour short.
        #expect(entries[1].start.timeIntervalSince(entries[0].start) == 7 * 86_400 - 3600)
    }

    @Test func weeksAcrossTheAutumnChangeInBerlin() {
        // Sunday 2026-10-25: clocks go back from 03:00 CEST to 02:00 CET.
        let sundayNight = Self.route("2026-10-25T23:30:00+01:00")
        let mondayEarly = Self.route("2026-10-26T00:30:00+01:00")  // still Sunday 23:30 in UTC
        let berlin = TrainingLog.aggregate([mondayEarly, sundayNight], period: .week, timeZone: Self.berlin)
        #expect(berlin.map(\.key) == ["2026-W43", "2026-W44"])
        #expect(berlin.map(\.startText) == ["2026-10-19T00:00:00.000+02:00", "2026-10-26T00:00:00.000+01:00"])
        #expect(berlin[1].start.timeIntervalSince(berlin[0].start) == 7 * 86_400 + 3600)
        let utc = TrainingLog.aggregate([mondayEarly, sundayNight], period: .week, timeZone: Self.utc)
        #expect(utc.map(\.key) == ["2026-W43"])
        #expect(utc.map(\.count) == [2])
    }

    @Test func oneInstantFallsInDifferentMonthsAndYearsByZone() {
        // 03:00 UTC on 1 November is 20:00 PDT on 31 October.
        let la = Self.losAngeles
        #expect(Self.period("2026-11-01T03:00:00Z", .month, Self.utc) == "2026-11 2026-11-01T00:00:00.000Z")
        #expect(Self.period("2026-11-01T03:00:00Z", .month, la) == "2026-10 2026-10-01T00:00:00.000-07:00")
        // November begins in PDT (the change is on its first Sunday); December in PST.
        #expect(Self.period("2026-11-20T03:00:00Z", .month, la) == "2026-11 2026-11-01T00:00:00.000-07:00")
        #expect(Self.period("2026-12-20T03:00:00Z", .month, la) == "2026-12 2026-12-01T00:00:00.000-08:00")
        #expect(Self.period("2027-01-01T05:00:00Z", .year, Self.utc) == "2027 2027-01-01T00:00:00.000Z")
        #expect(Self.period("2027-01-01T05:00:00Z", .year, la) == "2026 2026-01-01T00:00:00.000-08:00")
    }

    @Test func totalsComeOldestFirstWithoutEmptyPeriods() {
        let routes = [
            Self.route("2026-03-05T10:00:00Z", distance: 5000, movingTime: 1500, elevationGain: 40),
            Self.route("2026-01-20T10:00:00Z", distance: 10_000, movingTime: 3000, elevationGain: nil),
            Self.route("2026-01-02T10:00:00Z", distance: 2500, movingTime: 900, elevationGain: 12.5),
            Self.route("2025-06-30T10:00:00Z", distance: 100, movingTime: 60, elevationGain: 1),
        ]
        let months = TrainingLog.aggregate(routes, period: .month, timeZone: Self.utc)
        #expect(months.map(\.key) == ["2025-06", "2026-01", "2026-03"])
        #expect(months.map(\.count) == [1, 2, 1])
        #expect(months.map(\.distance) == [100, 12_500, 5000])
        #expect(months.map(\.movingTime) == [60, 3900, 1500])
        // A route without an elevation gain adds nothing to the total.
        #expect(months.map(\.elevationGain) == [1, 12.5, 40])
        let years = TrainingLog.aggregate(routes, period: .year, timeZone: Self.utc)
        #expect(years.map(\.key) == ["2025", "2026"])
        #expect(years.map(\.count) == [1, 3])
        #expect(years.map(\.startText) == ["2025-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"])
        #expect(TrainingLog.aggregate([], period: .week, timeZone: Self.utc).isEmpty)
        #expect(TrainingLog.aggregate([(Double.nan, 1, 1, 1)], period: .week, timeZone: Self.utc).isEmpty)
    }

    @Test func periodsListEveryPeriodBetweenTheEnds() {
        let from = Date(timeIntervalSince1970: Self.t("2026-01-31T23:00:00Z"))
        let to = Date(timeIntervalSince1970: Self.t("2026-04-01T00:00:00Z"))
        let months = TrainingLog.periods(from: from, to: to, period: .month, timeZone: Self.utc)
        #expect(months.map(\.key) == ["2026-01", "2026-02", "2026-03", "2026-04"])
        // In Berlin the first instant is already in February.
        let berlin = TrainingLog.periods(from: from, to: to, period: .month, timeZone: Self.berlin)
        #expect(berlin.map(\.key) == ["2026-02", "2026-03", "2026-04"])
        #expect(
            berlin.map { TrainingLog.format($0.start, in: Self.berlin) } == [
                "2026-02-01T00:00:00.000+01:00", "2026-03-01T00:00:00.000+01:00", "2026-04-01T00:00:00.000+02:00",
            ])
        let weeks = TrainingLog.periods(
            from: Date(timeIntervalSince1970: Self.t("2026-12-20T00:00:00Z")),
            to: Date(timeIntervalSince1970: Self.t("2027-01-11T00:00:00Z")), period: .week, timeZone: Self.utc)
        #expect(weeks.map(\.key) == ["2026-W51", "2026-W52", "2026-W53", "2027-W01", "2027-W02"])
        #expect(TrainingLog.periods(from: to, to: from, period: .year, timeZone: Self.utc).isEmpty)
        #expect(TrainingLog.periods(from: from, to: from, period: .year, timeZone: Self.utc).map(\.key) == ["2026"])
    }

    @Test func periodsStopAtTheLatestAskedFor() {
        let from = Date(timeIntervalSince1970: 0)
        let to = Date(timeIntervalSince1970: 253_402_300_799)
        let weeks = TrainingLog.periods(from: from, to: to, period: .week, timeZone: Self.utc, latest: 520)
        #expect(weeks.count == 520)
        #expect(weeks.last?.key == "9999-W52")
        let months = TrainingLog.periods(from: from, to: to, period: .month, timeZone: Self.utc, latest: 3)
        #expect(months.map(\.key) == ["9999-10", "9999-11", "9999-12"])
        // Fewer periods than the bound: all of them, from the first.
        let years = TrainingLog.periods(
            from: Date(timeIntervalSince1970: Self.t("2024-06-01T00:00:00Z")),
            to: Date(timeIntervalSince1970: Self.t("2026-06-01T00:00:00Z")), period: .year, timeZone: Self.utc,
            latest: 520)
        #expect(years.map(\.key) == ["2024", "2025", "2026"])
    }

    /// Routes 8,000 years apart: the chart draws the latest ``TrainingLogChart/maxPeriods`` weeks,
    /// not 420,000 bars.
    @Test func theChartDrawsAtMostTheLatestPeriods() throws {
        let entries = TrainingLog.aggregate(
            [(0, 1000, 600, 10), (253_402_000_000, 2000, 700, 20)], period: .week, timeZone: Self.utc)
        let svg = TrainingLogChart.svg(
            entries: entries, period: .week, timeZone: Self.utc, metric: .distance, width: 900, title: "Log")
        let bars = svg.components(separatedBy: #"class="bar""#).count - 1
        #expect(bars == TrainingLogChart.maxPeriods)
        #expect(svg.contains("9999-W52"))
    }

    @Test func offsetsAreWrittenAsRFC3339() {
        let winter = Date(timeIntervalSince1970: Self.t("2026-01-15T00:00:00Z"))
        #expect(TrainingLog.format(winter, in: Self.utc) == "2026-01-15T00:00:00.000Z")
        #expect(TrainingLog.format(winter, in: TimeZone(identifier: "Etc/UTC")!) == "2026-01-15T00:00:00.000Z")
        // Offset zero, but not UTC.
        #expect(
            TrainingLog.format(winter, in: TimeZone(identifier: "Europe/London")!) == "2026-01-15T00:00:00.000+00:00")
        #expect(
            TrainingLog.format(winter, in: TimeZone(identifier: "Asia/Kathmandu")!) == "2026-01-15T05:45:00.000+05:45")
        #expect(
            TrainingLog.format(winter, in: TimeZone(identifier: "America/St_Johns")!) == "2026-01-14T20:30:00.000-03:30"
        )
        #expect(TrainingLog.format(winter, in: Self.losAngeles) == "2026-01-14T16:00:00.000-08:00")
    }

    @Test func timeZonesAreIANANamesOnly() {
        for name in ["Europe/Berlin", "UTC", "America/New_York", "Asia/Kolkata", "Etc/UTC", "GMT"] {
            #expect(TrainingLog.timeZone(named: name) != nil, "\(name)")
        }
        #expect(TrainingLog.timeZone(named: "Europe/Berlin")?.identifier == "Europe/Berlin")
        #expect(TrainingLog.timeZone(named: "UTC")?.secondsFromGMT() == 0)
        for name in [
            "Mars/Olympus", "", "GMT+5", "UTC+1", "PST", "BST", "europe/berlin", "Europe/Berlin ", "../etc/passwd",
            "Europe/../Europe/Berlin", "utc", "Z", "Europe/", String(repeating: "A/", count: 40) + "B",
        ] {
            #expect(TrainingLog.timeZone(named: name) == nil, "\(name)")
        }
    }

    // MARK: The chart

    static func weeks() -> [TrainingLogEntry] {
        // Weeks 45 and 48 of 2026 and week 2 of 2027 in Berlin: two gaps of two weeks and one of
        // five (week 53 included).
        let routes = [
            route("2026-11-02T08:00:00+01:00", distance: 12_000, movingTime: 3600, elevationGain: 150),
            route("2026-11-04T08:00:00+01:00", distance: 8000, movingTime: 2700, elevationGain: 90),
            route("2026-11-25T08:00:00+01:00", distance: 21_100, movingTime: 7500, elevationGain: nil),
            route("2027-01-11T08:00:00+01:00", distance: 5000, movingTime: 1500, elevationGain: 20),
        ]
        return TrainingLog.aggregate(routes, period: .week, timeZone: berlin)
    }

    @Test(arguments: LogMetric.allCases) func oneBarPerPeriodGapsIncluded(_ metric: LogMetric) throws {
        let entries = Self.weeks()
        #expect(entries.map(\.key) == ["2026-W45", "2026-W48", "2027-W02"])
        let svg = TrainingLogChart.svg(
            entries: entries, period: .week, timeZone: Self.berlin, metric: metric, width: 640, title: "Log")
        let parsed = try ParsedSVG(svg)
        let bars = parsed.elements("rect", class: "bar")
        let keys = bars.compactMap { ParsedSVG.attribute($0, "data-key") }
        #expect(
            keys == [
                "2026-W45", "2026-W46", "2026-W47", "2026-W48", "2026-W49", "2026-W50", "2026-W51", "2026-W52",
                "2026-W53", "2027-W01", "2027-W02",
            ])
        let counts = bars.compactMap { ParsedSVG.number($0, "data-count") }
        #expect(counts == [2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1])
        let heights = bars.compactMap { ParsedSVG.number($0, "height") }
        #expect(heights.count == 11)
        // Empty periods, and a week whose one route has no elevation gain, are empty slots.
        let values = bars.compactMap { ParsedSVG.number($0, "data-value") }
        for (value, height) in zip(values, heights) {
            #expect((value == 0) == (height == 0))
        }
        #expect(values.filter { $0 > 0 }.count == (metric == .elevation ? 2 : 3))
        // Bars stand on the axis, left to right, and the tallest is the largest value.
        let xs = bars.compactMap { ParsedSVG.number($0, "x") }
        #expect(xs == xs.sorted())
        let bottoms = zip(bars.compactMap { ParsedSVG.number($0, "y") }, heights).map { $0 + $1 }
        #expect(Set(bottoms.map { ($0 * 10).rounded() }).count == 1)
        let largest = entries.max { TrainingLogChart.shown(metric, $0) < TrainingLogChart.shown(metric, $1) }!
        let tallest = zip(keys, heights).max { $0.1 < $1.1 }!.0
        #expect(tallest == largest.key)
        #expect(parsed.elements("script").isEmpty)
        #expect(parsed.allText.contains("2026-W45"))
    }

    @Test func axisLabelsCarryUnits() throws {
        let expected: [LogMetric: (title: String, unit: Regex<Substring>)] = [
            .distance: ("km", /\d+(?:\.\d+)? km/),
            .time: ("h", /\d+ (?:h|min|s)(?: \d+ (?:min|s))*/),
            .elevation: ("(m)", /\d+(?:\.\d+)? m/),
        ]
        for metric in LogMetric.allCases {
            let parsed = try ParsedSVG(
                TrainingLogChart.svg(
                    entries: Self.weeks(), period: .week, timeZone: Self.berlin, metric: metric, width: 480,
                    title: "Log"))
            let title = try #require(parsed.elements("text", class: "y-title").first?.stringValue)
            #expect(title.contains(expected[metric]!.title), "\(title)")
            let ticks = parsed.elements("text", class: "y-tick").compactMap(\.stringValue)
            #expect(ticks.count >= 2)
            for tick in ticks {
                #expect(tick.wholeMatch(of: expected[metric]!.unit) != nil, "\(metric): \(tick)")
            }
        }
        // Moving time reads in hours when the totals are hours.
        let time = try ParsedSVG(
            TrainingLogChart.svg(
                entries: Self.weeks(), period: .week, timeZone: Self.berlin, metric: .time, width: 480, title: "Log"))
        #expect(time.elements("text", class: "y-tick").compactMap(\.stringValue).contains("1 h"))
        #expect(TrainingLogChart.label(.time, 5400, step: 1800) == "1 h 30 min")
        #expect(TrainingLogChart.label(.time, 0, step: 600) == "0 min")
    }

    @Test func theTitleIsEscaped() throws {
        let title = "Log <&> \"mine\" & 'yours'"
        let svg = TrainingLogChart.svg(
            entries: Self.weeks(), period: .month, timeZone: Self.berlin, metric: .distance, width: 640, title: title)
        #expect(svg.contains("<title>Log &lt;&amp;&gt;"))
        let parsed = try ParsedSVG(svg)
        #expect(parsed.title == title)
        // By month: November, December and January, December empty.
        let monthly = TrainingLog.aggregate(
            Self.weeks().map { ($0.start.timeIntervalSince1970, $0.distance, $0.movingTime, $0.elevationGain) },
            period: .month, timeZone: Self.berlin)
        let months = try ParsedSVG(
            TrainingLogChart.svg(
                entries: monthly, period: .month, timeZone: Self.berlin, metric: .distance, width: 640, title: title))
        #expect(
            months.elements("rect", class: "bar").compactMap { ParsedSVG.attribute($0, "data-key") } == [
                "2026-11", "2026-12", "2027-01",
            ])
    }

    @Test func noEntriesSayNoRoutes() throws {
        let parsed = try ParsedSVG(
            TrainingLogChart.svg(
                entries: [], period: .week, timeZone: Self.utc, metric: .distance, width: 320, title: "Empty <log>"))
        #expect(parsed.title == "Empty <log>")
        #expect(parsed.elements("rect", class: "bar").isEmpty)
        #expect(parsed.allText.contains("No routes"))
    }

    @Test func manyPeriodsThinTheirLabels() throws {
        // Two years of weeks with a route every fourth: 101 slots, far more than labels fit.
        let routes = stride(from: 0, to: 104, by: 4).map { week in
            (Self.t("2025-01-06T12:00:00Z") + Double(week) * 7 * 86_400, 1000.0, 300.0, Double?.none)
        }
        let entries = TrainingLog.aggregate(routes, period: .week, timeZone: Self.utc)
        let parsed = try ParsedSVG(
            TrainingLogChart.svg(
                entries: entries, period: .week, timeZone: Self.utc, metric: .distance, width: 640, title: "Log"))
        let bars = parsed.elements("rect", class: "bar")
        #expect(bars.count == 101)
        let labels = parsed.elements("text", class: "x-tick").compactMap { ParsedSVG.number($0, "x") }
        #expect(labels.count < 20 && labels.count > 3)
        for (a, b) in zip(labels, labels.dropFirst()) { #expect(b - a >= 8 * 7) }
    }
}
