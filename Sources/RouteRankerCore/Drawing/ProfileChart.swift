/// A route's profile as a line chart: elevation, speed or pace against distance or time, with
/// labelled axes in the units people read.
public enum ProfileChart {
    /// The chart's height for a picture `width` pixels wide.
    public static func height(width: Double) -> Double { max(160, (width * 0.4).rounded()) }

    /// The SVG of the profile of `points` (those the reader may see, in order).
    public static func svg(points: [TrackPoint], y: ProfileY, x: ProfileX, width: Double, title: String) -> String {
        let values = ProfileSeries.values(points, y: y, x: x)
        let height = height(width: width)
        var svg = SVGWriter(width: width, height: height, title: title, description: description(y: y, x: x))
        svg.element(
            "rect", ["class": "background", "width": .number(width), "height": .number(height), "fill": "#fff"])
        let inKm = x == .distance && (values.last?.x ?? 0) >= 2000
        let xs = values.map { inKm ? $0.x / 1000 : $0.x }
        let xTicks =
            x == .time
            ? AxisTicks.duration(min: 0, max: xs.max() ?? 60)
            : AxisTicks(min: 0, max: xs.max() ?? (inKm ? 1 : 100))
        let ys = values.map(\.y)
        let yTicks =
            y == .pace
            ? AxisTicks.duration(min: ys.min() ?? 240, max: ys.max() ?? 360)
            : AxisTicks(min: ys.min() ?? 0, max: ys.max() ?? 100)
        let frame = ChartFrame(width: width, height: height, yTicks: yTicks, xTicks: xTicks)
        frame.draw(
            &svg, xTitle: xTitle(x, inKm: inKm), yTitle: yTitle(y),
            xLabel: { x == .time ? HumanFormat.duration($0) : trimmed($0) },
            yLabel: { y == .pace ? HumanFormat.duration($0) : trimmed($0) })
        if values.isEmpty {
            svg.element(
                "text",
                [
                    "class": "empty", "x": .number((frame.left + frame.right) / 2),
                    "y": .number((frame.top + frame.bottom) / 2), "text-anchor": "middle", "fill": "#555",
                ], text: "No \(y.rawValue) data")
        } else {
            let pixels = zip(xs, ys).map { (x: frame.px($0), y: frame.py($1)) }
            let drawn =
                pixels.count <= PolylineThinning.exactLimit(width: width) ? pixels : PolylineThinning.columns(pixels)
            svg.element(
                "polyline",
                [
                    "class": "series", "points": .text(SVGWriter.points(drawn)), "fill": "none", "stroke": "#2563eb",
                    "stroke-width": 2, "stroke-linejoin": "round",
                ])
        }
        return svg.finish()
    }

    static func description(y: ProfileY, x: ProfileX) -> String {
        "\(yTitle(y)) against \(xTitle(x, inKm: false).lowercased())"
    }

    static func xTitle(_ x: ProfileX, inKm: Bool) -> String {
        switch x {
        case .distance: inKm ? "Distance (km)" : "Distance (m)"
        case .time: "Time (h:mm:ss)"
        }
    }

    static func yTitle(_ y: ProfileY) -> String {
        switch y {
        case .elevation: "Elevation (m)"
        case .speed: "Speed (km/h)"
        case .pace: "Pace (min/km)"
        }
    }

    /// A tick value without needless decimals (ticks are round numbers: at most 3 decimals).
    static func trimmed(_ value: Double) -> String {
        var text = HumanFormat.fixed(value, decimals: 3)
        // Only a fraction's zeros: `1e+300` (a value past what `fixed` writes in digits) keeps its.
        guard text.contains("."), !text.contains("e") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
