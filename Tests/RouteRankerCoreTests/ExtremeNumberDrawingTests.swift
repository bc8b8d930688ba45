import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

/// The smallest subnormal, 5e-324 (the literal warns that it underflows).
private let tiny = Double.leastNonzeroMagnitude

/// Issue 43, rows 2–4: numbers at the edge of a `Double` (1e300, 9.3e18, subnormals, ±max, NaN)
/// drawn and formatted. Each used to trap (`Int(Double)` of a value no `Int` holds, a tick step
/// that underflowed to 0); now each gives sane text and a picture that parses.
@Suite struct ExtremeNumberDrawingTests {
    /// Every kind of extreme a stored or computed value can be.
    static let extremes: [Double] = [
        0, -0.0, 1, -1, 0.5, 1e300, -1e300, 9.3e18, -9.3e18, 9.223372036854775807e18, 1e15, 1e16, 1e19,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude, .nan, .infinity, -.infinity, 1e-300, 123_456.789,
    ]

    /// Text a person can read: no `nan`, no `inf`, not empty.
    static func expectSane(_ text: String, _ what: String) {
        #expect(!text.isEmpty, "\(what): empty")
        #expect(!text.lowercased().contains("nan"), "\(what): \(text)")
        #expect(!text.lowercased().contains("inf"), "\(what): \(text)")
    }

    /// A picture that parses as SVG and holds no `nan`/`inf` anywhere.
    static func expectSaneSVG(_ svg: String, _ what: String) throws {
        _ = try ParsedSVG(svg)
        #expect(!svg.lowercased().contains("nan"), "\(what)")
        #expect(!svg.lowercased().contains("inf"), "\(what)")
    }

    // Row 2: `HumanFormat.elevation(1e300)` trapped ("Double value cannot be converted to Int").
    @Test func elevationOfAHugeGainIsText() {
        #expect(HumanFormat.elevation(1e300).hasSuffix(" m"))
        #expect(HumanFormat.elevation(9.3e18).hasSuffix(" m"))
        #expect(HumanFormat.elevation(124.4) == "124 m")
        #expect(HumanFormat.elevation(-3.6) == "-4 m")
        #expect(HumanFormat.elevation(.nan) == "–")
    }

    @Test(arguments: extremes) func everyFormatGivesSaneText(_ value: Double) {
        for (name, text) in [
            ("distance", HumanFormat.distance(value)), ("duration", HumanFormat.duration(value)),
            ("pace", HumanFormat.pace(value)), ("speed", HumanFormat.speed(value)),
            ("elevation", HumanFormat.elevation(value)), ("pValue", HumanFormat.pValue(value)),
            ("fixed0", HumanFormat.fixed(value, decimals: 0)), ("fixed3", HumanFormat.fixed(value, decimals: 3)),
            ("trimmed", ProfileChart.trimmed(value)),
        ] where value.isFinite || !["fixed0", "fixed3", "trimmed"].contains(name) {
            Self.expectSane(text, "\(name)(\(value))")
        }
    }

    @Test func fixedKeepsItsDigitsWhereAnIntHoldsThem() {
        #expect(HumanFormat.fixed(5.006, decimals: 2) == "5.01")
        #expect(HumanFormat.fixed(-0.5, decimals: 2) == "-0.50")
        #expect(HumanFormat.fixed(-0.0001, decimals: 2) == "0.00")
        // Decimals outside what a 64-bit integer can scale by are clamped, not a trap.
        #expect(HumanFormat.fixed(1.5, decimals: 40) == HumanFormat.fixed(1.5, decimals: 15))
        #expect(HumanFormat.fixed(1.5, decimals: -3) == "2")
        #expect(HumanFormat.fixed(.nan, decimals: 2) == "–")
    }

    @Test func tickLabelsKeepTheZerosOfAnExponent() {
        #expect(ProfileChart.trimmed(1e300) == "1e+300")
        #expect(ProfileChart.trimmed(1e20) == "1e+20")
        #expect(ProfileChart.trimmed(2.5) == "2.5")
        #expect(ProfileChart.trimmed(-0.0001) == "0")
        #expect(ProfileChart.trimmed(1200) == "1200")
    }

    @Test func aDurationBeyondAnIntIsWrittenInHours() {
        #expect(HumanFormat.duration(3723) == "1:02:03")
        #expect(HumanFormat.duration(-65) == "-1:05")
        let huge = HumanFormat.duration(1e300)
        #expect(huge.hasSuffix(" h"), "\(huge)")
        #expect(HumanFormat.duration(-1e19).hasPrefix("-"))
    }

    // Row 3: ele 0, 5e-324, 0: the tick step underflowed to 0 and `Int(NaN)` trapped.
    @Test func ticksOfASubnormalRangeCoverIt() {
        for (ticks, range) in [
            (AxisTicks(min: 0, max: tiny), 0...tiny), (AxisTicks(min: -tiny, max: tiny), -tiny...tiny),
            (AxisTicks.duration(min: 0, max: tiny), 0...tiny),
            (AxisTicks(min: 1e-300, max: 2e-300), 1e-300...2e-300),
            (AxisTicks(min: 1e-300, max: 1e-299), 1e-300...1e-299),
            (AxisTicks(min: 1e17, max: 1e17 + 16), 1e17...1e17 + 16),
        ] {
            Self.expectSaneTicks(ticks, covering: range)
        }
    }

    @Test(arguments: extremes) func ticksAreFewFiniteAndCoverWhatTheyCan(_ value: Double) {
        for other in Self.extremes {
            for ticks in [AxisTicks(min: value, max: other), AxisTicks.duration(min: value, max: other)] {
                let covered = { (x: Double) in
                    Swift.min(Swift.max(x, -AxisTicks.largestCovered), AxisTicks.largestCovered)
                }
                let low = covered(Swift.min(value, other))
                let high = covered(Swift.max(value, other))
                Self.expectSaneTicks(ticks, covering: value.isFinite && other.isFinite ? low...high : nil)
            }
        }
    }

    @Test func aHugeTargetStillGivesFewTicks() {
        let ticks = AxisTicks(min: 0, max: 1e6, target: Int.max)
        #expect(ticks.values.count <= AxisTicks.maxCount)
        #expect(AxisTicks(min: 0, max: 1, target: Int.min).values.count >= 2)
    }

    static func expectSaneTicks(_ ticks: AxisTicks, covering range: ClosedRange<Double>?) {
        #expect(ticks.values.count >= 2 && ticks.values.count <= AxisTicks.maxCount, "\(ticks.values.count)")
        #expect(ticks.values.allSatisfy { $0.isFinite }, "\(ticks.values)")
        #expect(ticks.step.isFinite && ticks.step > 0, "\(ticks.step)")
        #expect(ticks.upper > ticks.lower)
        #expect((ticks.upper - ticks.lower).isFinite)
        #expect(zip(ticks.values, ticks.values.dropFirst()).allSatisfy { $0 < $1 })
        if let range {
            #expect(ticks.lower <= range.lowerBound && ticks.upper >= range.upperBound, "\(ticks.values) \(range)")
        }
    }

    /// A route whose elevations are `eles`, a point every 10 s and ~10 m.
    static func route(eles: [Double?], start: Double = 1_700_000_000) -> [TrackPoint] {
        eles.enumerated().map { i, ele in
            TrackPoint(lat: 46.05 + Double(i) * 0.0001, lon: 14.5, t: start + Double(i) * 10, ele: ele)
        }
    }

    @Test(arguments: [
        [0, 1e300, 1e300], [0, tiny, 0], [0, -1e300, 1e300], [.greatestFiniteMagnitude, -.greatestFiniteMagnitude],
        [9.3e18, 0],
    ])
    func profilesOfExtremeElevationsParse(_ eles: [Double]) throws {
        let points = Self.route(eles: eles)
        for y in ProfileY.allCases {
            for x in ProfileX.allCases {
                try Self.expectSaneSVG(
                    ProfileChart.svg(points: points, y: y, x: x, width: 640, title: "p"), "\(y) \(x) \(eles)")
            }
        }
        try Self.expectSaneSVG(RouteMapPicture.svg(points: points, width: 640, title: "m"), "map \(eles)")
    }

    @Test func aProfileOverOneInstantOrOneSpotParses() throws {
        // Many points at one time and place: speeds of 0/0, a span of zero on both axes.
        let points = (0..<20).map { _ in TrackPoint(lat: 46, lon: 14, t: 1_700_000_000, ele: tiny) }
        for y in ProfileY.allCases {
            for x in ProfileX.allCases {
                try Self.expectSaneSVG(
                    ProfileChart.svg(points: points, y: y, x: x, width: 640, title: "p"), "\(y) \(x)")
            }
        }
    }

    // Row 4: a gain above 9.2e18 in the training log's chart trapped in `HumanFormat.elevation`.
    @Test(arguments: LogMetric.allCases) func aTrainingLogOfHugeTotalsParses(_ metric: LogMetric) throws {
        for value in [9.3e18, 1e300, .greatestFiniteMagnitude, tiny, 1e11, 1e9] {
            let routes: [TrainingLog.Route] = [
                (1_700_000_000, value, value, value), (1_700_000_000 + 86400 * 30, value, value, value),
            ]
            let entries = TrainingLog.aggregate(routes, period: .week, timeZone: TimeZone(identifier: "UTC")!)
            let svg = TrainingLogChart.svg(
                entries: entries, period: .week, timeZone: TimeZone(identifier: "UTC")!, metric: metric, width: 640,
                title: "log")
            try Self.expectSaneSVG(svg, "\(metric) \(value)")
        }
    }

    @Test(arguments: GroupMetric.allCases) func aComparisonOfExtremeValuesParses(_ metric: GroupMetric) throws {
        let groups = [
            CompareChart.Group(id: "a", name: "A", values: [1e300, -1e300, tiny, .greatestFiniteMagnitude]),
            CompareChart.Group(id: "b", name: "B", values: [9.3e18, .nan, -.greatestFiniteMagnitude]),
            CompareChart.Group(id: "c", name: "C", values: []),
        ]
        try Self.expectSaneSVG(CompareChart.svg(groups: groups, metric: metric, width: 640, title: "c"), "\(metric)")
    }

    @Test func boxPlotQuantilesStayInside() {
        let box = BoxPlotStatistics([1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude])
        #expect(box != nil)
        #expect(BoxPlotStatistics.quantile([1, 2, 3], .nan) == 1)
        #expect(BoxPlotStatistics.quantile([1, 2, 3], 7) == 3)
        #expect(BoxPlotStatistics.quantile([1, 2, 3], -1) == 1)
        #expect(BoxPlotStatistics.quantile([], 0.5).isNaN)
    }

    @Test func picturesOfAbsurdWidthsDoNotTrap() throws {
        let points = Self.route(eles: [0, 100, 50])
        for width in [0, -5, 1e300, .nan, .infinity, tiny, 48] as [Double] {
            _ = RouteMapPicture.svg(points: points, width: width, title: "m")
            _ = ProfileChart.svg(points: points, y: .elevation, x: .distance, width: width, title: "p")
            _ = PolylineThinning.exactLimit(width: width)
            let entries = TrainingLog.aggregate(
                [(1_700_000_000, 1000, 600, 10)], period: .week, timeZone: TimeZone(identifier: "UTC")!)
            _ = TrainingLogChart.svg(
                entries: entries, period: .week, timeZone: TimeZone(identifier: "UTC")!, metric: .time,
                width: width, title: "l")
        }
    }

    @Test func mapTilesOfAnyFitAreBounded() throws {
        let tiles = try MapTiles(template: "https://t.example/{z}/{x}/{y}.png", attribution: "© test")
        for scale in [0, -1, tiny, 1e300, .infinity, .nan, 256, 4e7] as [Double] {
            let fit = MapFit(width: 640, height: 400, scale: scale, centre: (0.5, 0.5))
            let zoom = fit.tileZoom(maxZoom: 19)
            #expect((0...19).contains(zoom))
            #expect(MapTiles.covering(fit, zoom: zoom).count <= MapTiles.maxCovering)
        }
        #expect(
            MapTiles.covering(MapFit(width: 640, height: 400, scale: 256, centre: (0.5, 0.5)), zoom: 99).count
                <= MapTiles.maxCovering)
        #expect(
            MapTiles.covering(MapFit(width: 640, height: 400, scale: 256, centre: (0.5, 0.5)), zoom: -3).count
                <= MapTiles.maxCovering)
        // Over tiles, with the route's points a subnormal apart: the scale is huge, the zoom clamped.
        let points = [TrackPoint(lat: 46, lon: 14, t: 1), TrackPoint(lat: 46, lon: 14 + 1e-13, t: 2)]
        try Self.expectSaneSVG(RouteMapPicture.svg(points: points, width: 640, title: "m", tiles: tiles), "tiled")
    }

    @Test func theScaleBarOfAnyScaleIsText() {
        for mpp in [tiny, 1e300, 1e-300, .greatestFiniteMagnitude] {
            let metres = RouteMapPicture.scaleBarMetres(metresPerPixel: mpp, width: 640)
            #expect(metres.isFinite && metres > 0)
            Self.expectSane(RouteMapPicture.scaleBarLabel(metres), "label \(metres)")
        }
        #expect(RouteMapPicture.scaleBarLabel(2000) == "2 km")
        #expect(RouteMapPicture.scaleBarLabel(500) == "500 m")
    }

    // Times are written from stored points too (exports, JSON): a damaged record's 1e300 or NaN
    // made `Int64(parts[0])!` and `Int64(ms)` trap.
    @Test(arguments: Self.extremes) func timesOfAnyValueAreWritten(_ t: Double) {
        let texts = [RFC3339.format(t), RFC3339.formatMilliseconds(t)]
        for text in texts {
            Self.expectSane(text, "time \(t)")
            #expect(text.hasSuffix("Z"), "\(text)")
        }
        var bytes: [UInt8] = []
        RFC3339.append(t, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == texts[0])
        #expect(RFC3339.format(1_700_000_000.5) == "2023-11-14T22:13:20.500Z")
    }

    @Test func clampedIntStatesItsRange() {
        #expect(Double.nan.clampedInt(in: -5...5) == -5)
        #expect(Double.infinity.clampedInt(in: -5...5) == 5)
        #expect((-Double.infinity).clampedInt(in: -5...5) == -5)
        #expect(1e300.clampedInt(in: 0...Int.max) == Int.max)
        #expect(9.223372036854775807e18.clampedInt(in: Int.min...Int.max) == Int.max)
        #expect((-9.3e18).clampedInt(in: Int.min...Int.max) == Int.min)
        #expect(2.5.clampedInt(in: 0...10) == 3)
        #expect(2.5.clampedInt(in: 0...10, rounding: .down) == 2)
        #expect(tiny.clampedInt(in: 0...10, rounding: .up) == 1)
        #expect(1e300.clampedInt64(in: 0...Int64.max) == Int64.max)
    }
}
