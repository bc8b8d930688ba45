/// The frame of a chart: the plot area, the value ranges its axes cover, grid lines, tick labels
/// and axis titles. Maps values to pixels for what is drawn inside.
public struct ChartFrame: Sendable {
    /// The plot area in pixels.
    public let left: Double
    public let top: Double
    public let right: Double
    public let bottom: Double
    /// The vertical axis's ticks (it spans the first to the last).
    public let yTicks: AxisTicks
    /// The horizontal axis's ticks, if it is a value axis.
    public let xTicks: AxisTicks?

    /// A frame with its plot area inside a `width` × `height` picture.
    public init(
        width: Double, height: Double, yTicks: AxisTicks, xTicks: AxisTicks?, leftMargin: Double = 64,
        topMargin: Double = 28
    ) {
        left = leftMargin
        top = topMargin
        right = width - 20
        bottom = height - 44
        self.yTicks = yTicks
        self.xTicks = xTicks
    }

    /// The pixel row of value `y`.
    public func py(_ y: Double) -> Double {
        // Ticks span a positive, finite range (``AxisTicks``); 1 only guards the division.
        let span = Self.positive(yTicks.upper - yTicks.lower)
        return bottom - (y - yTicks.lower) / span * (bottom - top)
    }

    /// The pixel column of value `x` (on a value axis).
    public func px(_ x: Double) -> Double {
        guard let xTicks else { return left }
        let span = Self.positive(xTicks.upper - xTicks.lower)
        return left + (x - xTicks.lower) / span * (right - left)
    }

    private static func positive(_ span: Double) -> Double { span.isFinite && span > 0 ? span : 1 }

    /// Draws the grid, the ticks' labels (written by `xLabel` and `yLabel`) and the axis titles.
    public func draw(
        _ svg: inout SVGWriter, xTitle: String, yTitle: String, xLabel: (Double) -> String,
        yLabel: (Double) -> String
    ) {
        svg.open("g", ["class": "axes", "fill": "#334155"])
        for value in yTicks.values {
            let y = py(value)
            svg.element(
                "line",
                ["x1": .number(left), "x2": .number(right), "y1": .number(y), "y2": .number(y), "stroke": "#e2e8f0"])
            svg.element(
                "text",
                ["class": "y-tick", "x": .number(left - 6), "y": .number(y + 4), "text-anchor": "end"],
                text: yLabel(value))
        }
        if let xTicks {
            for value in xTicks.values {
                let x = px(value)
                svg.element(
                    "line",
                    [
                        "x1": .number(x), "x2": .number(x), "y1": .number(top), "y2": .number(bottom),
                        "stroke": "#f1f5f9",
                    ])
                svg.element(
                    "text",
                    ["class": "x-tick", "x": .number(x), "y": .number(bottom + 16), "text-anchor": "middle"],
                    text: xLabel(value))
            }
        }
        svg.element(
            "path",
            [
                "d": .text(
                    "M\(SVGNumber.format(left)),\(SVGNumber.format(top))V\(SVGNumber.format(bottom))H\(SVGNumber.format(right))"
                ),
                "fill": "none", "stroke": "#64748b",
            ])
        if !xTitle.isEmpty {
            svg.element(
                "text",
                [
                    "class": "x-title", "x": .number((left + right) / 2), "y": .number(bottom + 36),
                    "text-anchor": "middle",
                ], text: xTitle)
        }
        svg.element(
            "text", ["class": "y-title", "x": 8, "y": 16, "text-anchor": "start"], text: yTitle)
        svg.close()
    }
}
