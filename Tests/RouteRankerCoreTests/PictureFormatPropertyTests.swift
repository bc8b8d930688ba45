import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

/// Issue 43: every picture Core draws and every number it writes for people, for random routes whose
/// values span what the API allows (`ele` −12,000…100,000 m, sums up to ~1e11, durations up to 1e9 s)
/// and the subnormals and edges in between. A seeded generator: each case replays, and a failure
/// names its seed.
@Suite struct PictureFormatPropertyTests {
    static let seeds: [UInt64] = Array(1...24)

    /// A value drawn for one of the API's ranges: mostly uniform in it, sometimes its ends, zero, a
    /// subnormal or a value a hair away from a round one.
    static func value(in range: ClosedRange<Double>, _ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case 2: return Double.leastNonzeroMagnitude * Double(Int.random(in: -3...3, using: &random))
        case 3: return 0
        case 4: return Double(Int.random(in: -5...5, using: &random)).nextUp
        default: return Double.random(in: range, using: &random)
        }
    }

    static func route(_ random: inout SeededGenerator) -> [TrackPoint] {
        let count = Int.random(in: 0...200, using: &random)
        var t = Double.random(in: 1...2e9, using: &random)
        var lat = Double.random(in: -85...85, using: &random)
        var lon = Double.random(in: -179...179, using: &random)
        let spread = [1e-9, 1e-5, 1e-3, 0.1][Int.random(in: 0..<4, using: &random)]
        return (0..<count).map { _ in
            t += [0, 1e-6, 1, 10, 3600, 1e7][Int.random(in: 0..<6, using: &random)]
            lat = min(90, max(-90, lat + Double.random(in: -spread...spread, using: &random)))
            lon = min(180, max(-180, lon + Double.random(in: -spread...spread, using: &random)))
            let ele = Bool.random(using: &random) ? value(in: -12_000...100_000, &random) : nil
            return TrackPoint(
                lat: lat, lon: lon, t: min(t, PointValidation.maxTime), ele: ele,
                acc: value(in: 0...1_000_000, &random))
        }
    }

    static func expectSane(_ svg: String, _ what: String) throws {
        let parsed = try ParsedSVG(svg)
        #expect(parsed.document.rootElement()?.name == "svg")
        let lower = svg.lowercased()
        #expect(!lower.contains("nan") && !lower.contains("inf"), "\(what)")
    }

    static func expectSaneText(_ text: String, _ what: String) {
        let lower = text.lowercased()
        #expect(!text.isEmpty && !lower.contains("nan") && !lower.contains("inf"), "\(what): \(text)")
    }

    @Test(arguments: seeds) func routePicturesParse(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let points = Self.route(&random)
        let width = [100.0, 640, 2000][Int.random(in: 0..<3, using: &random)]
        let tiles = try MapTiles(template: "https://tile.example/{z}/{x}/{y}.png", attribution: "© test")
        try Self.expectSane(RouteMapPicture.svg(points: points, width: width, title: "map"), "map \(seed)")
        try Self.expectSane(
            RouteMapPicture.svg(points: points, width: width, title: "map", tiles: tiles), "tiled map \(seed)")
        for y in ProfileY.allCases {
            for x in ProfileX.allCases {
                try Self.expectSane(
                    ProfileChart.svg(points: points, y: y, x: x, width: width, title: "profile"), "\(y) \(x) \(seed)")
            }
        }
    }

    @Test(arguments: seeds) func logAndComparisonChartsParse(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Up to 50 routes over about two years: each's distance and gain up to 1e11 m (a million
        // points of the largest steps), moving time up to 1e9 s.
        let routes: [TrainingLog.Route] = (0..<Int.random(in: 0...50, using: &random)).map { _ in
            (
                1_700_000_000 + Double.random(in: 0...6e7, using: &random), Self.value(in: 0...1e11, &random),
                Self.value(in: 0...1e9, &random), Bool.random(using: &random) ? Self.value(in: 0...1e11, &random) : nil
            )
        }
        let zone = try #require(TimeZone(identifier: ["UTC", "Europe/Berlin", "Asia/Kolkata"][Int(seed % 3)]))
        for period in LogPeriod.allCases {
            let entries = TrainingLog.aggregate(routes, period: period, timeZone: zone)
            for metric in LogMetric.allCases {
                try Self.expectSane(
                    TrainingLogChart.svg(
                        entries: entries, period: period, timeZone: zone, metric: metric, width: 640, title: "log"),
                    "log \(period) \(metric) \(seed)")
            }
        }
        let groups = (0..<Int.random(in: 0...6, using: &random)).map { index in
            CompareChart.Group(
                id: "g\(index)", name: "Group \(index)",
                values: (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.value(in: 0...1e9, &random) })
        }
        for metric in GroupMetric.allCases {
            try Self.expectSane(
                CompareChart.svg(groups: groups, metric: metric, width: 640, title: "compare"), "\(metric) \(seed)")
        }
    }

    @Test(arguments: seeds) func everyFormatIsText(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let value = [
                Self.value(in: -12_000...100_000, &random), Self.value(in: 0...1e11, &random),
                Self.value(in: 0...1e9, &random), Self.value(in: -1e9...1e9, &random),
            ][Int.random(in: 0..<4, using: &random)]
            for (name, text) in [
                ("distance", HumanFormat.distance(value)), ("duration", HumanFormat.duration(value)),
                ("pace", HumanFormat.pace(value)), ("speed", HumanFormat.speed(value)),
                ("elevation", HumanFormat.elevation(value)), ("pValue", HumanFormat.pValue(value)),
                ("fixed", HumanFormat.fixed(value, decimals: Int.random(in: 0...3, using: &random))),
                ("trimmed", ProfileChart.trimmed(value)),
            ] {
                Self.expectSaneText(text, "\(name)(\(value)) seed \(seed)")
            }
        }
    }

    @Test(arguments: seeds.prefix(6)) func qrPicturesParse(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let side = Int.random(in: 0...57, using: &random)
        let modules = (0..<side).map { _ in (0..<side).map { _ in Bool.random(using: &random) } }
        try Self.expectSane(QRCodeSVG.svg(modules: modules, title: "qr", moduleSize: 4), "qr \(seed)")
    }
}
