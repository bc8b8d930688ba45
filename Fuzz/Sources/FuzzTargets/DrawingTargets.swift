import Foundation
import RouteRankerCore

// The `drawing` target (issue 43, rows 2–4: traps in formatting and pictures): every number people
// read and every picture Core draws, fed doubles decoded from the fuzz bytes. Eight bytes make one
// Double bit for bit, so subnormals, ±max, ±∞ and NaNs of every payload arrive as often as
// ordinary values; one byte in four instead picks from a table of known edges, so that the
// mutator finds them without guessing 64 bits. Every text must be free of `nan`/`inf`, every
// picture an `<svg>` document without them (parsing is left to the property test: the fuzzer
// checks the invariants that are cheap to check a million times).

/// Doubles read from fuzz bytes, and small integers and choices from the same stream.
struct FuzzNumbers {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isEmpty: Bool { bytes.isEmpty }

    static let edges: [Double] = [
        0, -0.0, 1, -1, 0.5, 1e300, -1e300, 9.3e18, -9.3e18, 9.223372036854775807e18, 1e15, 1e19, 1e11, 1e9,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude, .nan, .infinity, -.infinity, -12_000, 100_000, 1_000_000, 86_400, 3600,
    ]

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// The next Double: an edge from the table (when the tag byte's low two bits are 0) or the
    /// next eight bytes as an IEEE 754 bit pattern.
    mutating func double() -> Double {
        let tag = byte()
        if tag & 3 == 0 { return Self.edges[Int(tag >> 2) % Self.edges.count] }
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// The next Double that a stored record or a computed statistic can hold: finite values and
    /// ±∞ (a sum that overflowed), no NaN.
    mutating func stored() -> Double {
        let value = double()
        return value.isNaN ? .infinity : value
    }

    mutating func count(_ limit: Int) -> Int { Int(byte()) % (limit + 1) }
}

/// Text a person reads: no `nan`, no `inf`.
func expectSane(_ text: String, _ what: @autoclosure () -> String) {
    let lower = text.lowercased()
    precondition(!text.isEmpty && !lower.contains("nan") && !lower.contains("inf"), "\(what()): \(text)")
}

/// An SVG document as Core writes them: one `<svg>` element, no `nan`/`inf` anywhere.
func expectSaneSVG(_ svg: String, _ what: @autoclosure () -> String) {
    precondition(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>\n"), "\(what()): not an SVG document")
    let lower = svg.lowercased()
    precondition(!lower.contains("nan") && !lower.contains("inf"), "\(what()): nan or inf in \(svg.prefix(400))")
}

func fuzzDrawing(_ bytes: [UInt8]) {
    var numbers = FuzzNumbers(bytes)
    let which = numbers.byte()
    let width = [640.0, 100, 2000, numbers.double()][Int(which & 3)]
    switch (which >> 2) % 6 {
    case 0:
        // The formats, each on values of every kind.
        while !numbers.isEmpty {
            let value = numbers.double()
            for text in [
                HumanFormat.distance(value), HumanFormat.duration(value), HumanFormat.pace(value),
                HumanFormat.speed(value), HumanFormat.elevation(value), HumanFormat.pValue(value),
                HumanFormat.fixed(value, decimals: numbers.count(20) - 2),
                RFC3339.format(value), RFC3339.formatMilliseconds(value),
            ] {
                expectSane(text, "format of \(value)")
            }
        }
    case 1:
        // Ticks: few, finite, ascending, covering the (clamped) data.
        let low = numbers.double()
        let high = numbers.double()
        let target = Int(Int8(bitPattern: numbers.byte()))
        for ticks in [
            AxisTicks(min: low, max: high, target: target), AxisTicks.duration(min: low, max: high, target: target),
        ] {
            precondition(ticks.values.count >= 2 && ticks.values.count <= AxisTicks.maxCount, "\(ticks.values.count)")
            precondition(ticks.step.isFinite && ticks.step > 0 && ticks.values.allSatisfy(\.isFinite))
            precondition(zip(ticks.values, ticks.values.dropFirst()).allSatisfy { $0 < $1 })
            if low.isFinite && high.isFinite {
                let limit = AxisTicks.largestCovered
                precondition(ticks.lower <= max(min(low, high), -limit) && ticks.upper >= min(max(low, high), limit))
            }
        }
    case 2:
        // A route's map and profiles: elevations and times of any value (lat/lon as ingest allows).
        var points: [TrackPoint] = []
        var t = 1_700_000_000.0
        for _ in 0..<numbers.count(60) {
            let lat = max(-90, min(90, numbers.stored().truncatingRemainder(dividingBy: 90)))
            let lon = max(-180, min(180, numbers.stored().truncatingRemainder(dividingBy: 180)))
            let step = numbers.stored()
            if step.isFinite, step > 0 { t = min(t + step, 253_402_300_799) }
            let ele = numbers.byte() & 1 == 0 ? nil : numbers.stored()
            points.append(TrackPoint(lat: lat.isNaN ? 0 : lat, lon: lon.isNaN ? 0 : lon, t: t, ele: ele))
        }
        expectSaneSVG(RouteMapPicture.svg(points: points, width: width, title: "m"), "map")
        if let tiles = try? MapTiles(template: "https://t.example/{z}/{x}/{y}.png", attribution: "© t") {
            expectSaneSVG(RouteMapPicture.svg(points: points, width: width, title: "m", tiles: tiles), "tiled map")
        }
        for y in ProfileY.allCases {
            for x in ProfileX.allCases {
                expectSaneSVG(ProfileChart.svg(points: points, y: y, x: x, width: width, title: "p"), "\(y) \(x)")
            }
        }
    case 3:
        // The training log: totals of any size (sums that overflowed included).
        let routes: [TrainingLog.Route] = (0..<numbers.count(12)).map { _ in
            (
                1_700_000_000 + Double(numbers.byte()) * 86_400 * 3, numbers.stored(), numbers.stored(),
                numbers.byte() & 1 == 0 ? nil : numbers.stored()
            )
        }
        let utc = TimeZone(identifier: "UTC") ?? .current
        for period in LogPeriod.allCases {
            let entries = TrainingLog.aggregate(routes, period: period, timeZone: utc)
            for metric in LogMetric.allCases {
                expectSaneSVG(
                    TrainingLogChart.svg(
                        entries: entries, period: period, timeZone: utc, metric: metric, width: width, title: "l"),
                    "log \(period) \(metric)")
            }
        }
    case 4:
        // Groups compared: box plots of values of any kind (NaN is left out by the chart).
        let groups = (0..<numbers.count(5)).map { index in
            CompareChart.Group(
                id: "g\(index)", name: "G\(index)", values: (0..<numbers.count(8)).map { _ in numbers.double() })
        }
        for metric in GroupMetric.allCases {
            expectSaneSVG(CompareChart.svg(groups: groups, metric: metric, width: width, title: "c"), "\(metric)")
        }
        for group in groups {
            if let box = BoxPlotStatistics(group.values) {
                precondition(box.min <= box.max && box.sorted.count <= group.values.count)
            }
            _ = BoxPlotStatistics.quantile(group.values.filter { !$0.isNaN }.sorted(), numbers.double())
        }
    default:
        // Map fits and tiles of any scale; the thinning of any line.
        let fit = MapFit(
            width: width, height: numbers.double(), scale: numbers.double(),
            centre: (numbers.double(), numbers.double()))
        let zoom = fit.tileZoom(maxZoom: numbers.count(30) - 4)
        precondition(zoom >= 0)
        precondition(MapTiles.covering(fit, zoom: Int(Int8(bitPattern: numbers.byte()))).count <= MapTiles.maxCovering)
        let label = RouteMapPicture.scaleBarLabel(
            RouteMapPicture.scaleBarMetres(metresPerPixel: numbers.double(), width: width))
        expectSane(label, "scale bar")
        let line = (0..<numbers.count(40)).map { _ in (x: numbers.double(), y: numbers.double()) }
        precondition(PolylineThinning.columns(line).count <= line.count)
        precondition(PolylineThinning.nearby(line).count <= line.count)
        _ = PolylineThinning.exactLimit(width: width)
    }
}
