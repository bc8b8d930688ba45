/// Groups compared on one metric: for each group, in ranking order, its routes as dots over a box
/// (quartiles and median, whiskers to the extremes), the mean with its 95 % confidence interval,
/// and between neighbours the p-value of Welch's test.
public enum CompareChart {
    /// One group as the chart shows it.
    public struct Group: Sendable {
        public var id: String
        public var name: String
        /// The metric's values of the group's routes (those with a value), in the API's units.
        public var values: [Double]

        public init(id: String, name: String, values: [Double]) {
            self.id = id
            self.name = name
            self.values = values
        }
    }

    /// The SVG for `groups` (already in ranking order) on `metric`, `width` pixels wide.
    public static func svg(groups: [Group], metric: GroupMetric, width: Double, title: String) -> String {
        let height = max(240, (width * 0.55).rounded())
        let scale = MetricScale(metric)
        let shown = groups.map { $0.values.map(scale.shown) }
        let all = shown.flatMap { $0 }
        let ticks =
            scale.isDuration
            ? AxisTicks.duration(min: all.min() ?? 0, max: all.max() ?? 60)
            : AxisTicks(min: all.min() ?? 0, max: all.max() ?? 1)
        var svg = SVGWriter(
            width: width, height: height, title: title,
            description: "\(groups.count) groups compared on \(scale.title), best first.")
        svg.element(
            "rect", ["class": "background", "width": .number(width), "height": .number(height), "fill": "#fff"])
        let frame = ChartFrame(width: width, height: height, yTicks: ticks, xTicks: nil, leftMargin: 72, topMargin: 48)
        frame.draw(
            &svg, xTitle: "", yTitle: scale.title + " · groups best first", xLabel: { _ in "" }, yLabel: scale.label)
        let column = (frame.right - frame.left) / Double(max(groups.count, 1))
        let boxWidth = min(64, column * 0.45)
        for (index, group) in groups.enumerated() {
            let centre = frame.left + column * (Double(index) + 0.5)
            svg.open("g", ["class": "group", "data-group": .text(group.id), "data-rank": .number(Double(index + 1))])
            drawGroup(&svg, values: shown[index], centre: centre, boxWidth: boxWidth, frame: frame)
            svg.element(
                "text",
                [
                    "class": "group-name", "x": .number(centre), "y": .number(frame.bottom + 16),
                    "text-anchor": "middle",
                ], text: group.name)
            svg.element(
                "text",
                [
                    "class": "group-count", "x": .number(centre), "y": .number(frame.bottom + 30),
                    "text-anchor": "middle", "fill": "#64748b",
                ], text: "n = \(group.values.count)")
            svg.close()
        }
        for index in groups.indices.dropFirst() {
            let a = groups[index - 1].values
            let b = groups[index].values
            let text = WelchTest.compare(a: a, b: b).map { HumanFormat.pValue($0.pValue) } ?? "p = –"
            svg.element(
                "text",
                [
                    "class": "p-value", "x": .number(frame.left + column * Double(index)), "y": .number(frame.top - 10),
                    "text-anchor": "middle", "fill": "#7c3aed",
                ], text: text)
        }
        return svg.finish()
    }

    private static func drawGroup(
        _ svg: inout SVGWriter, values: [Double], centre: Double, boxWidth: Double, frame: ChartFrame
    ) {
        guard let box = BoxPlotStatistics(values) else {
            svg.element(
                "text",
                [
                    "class": "no-values", "x": .number(centre), "y": .number((frame.top + frame.bottom) / 2),
                    "text-anchor": "middle", "fill": "#64748b",
                ], text: "no values")
            return
        }
        let half = boxWidth / 2
        svg.element(
            "path",
            [
                "class": "whisker",
                "d": .text(
                    "M\(n(centre)),\(n(frame.py(box.max)))V\(n(frame.py(box.q3)))M\(n(centre)),\(n(frame.py(box.q1)))V\(n(frame.py(box.min)))"
                ),
                "stroke": "#475569",
            ])
        svg.element(
            "rect",
            [
                "class": "box", "x": .number(centre - half), "y": .number(frame.py(box.q3)),
                "width": .number(boxWidth), "height": .number(max(1, frame.py(box.q1) - frame.py(box.q3))),
                "fill": "#dbeafe", "stroke": "#1d4ed8",
            ])
        svg.element(
            "line",
            [
                "class": "median", "x1": .number(centre - half), "x2": .number(centre + half),
                "y1": .number(frame.py(box.median)), "y2": .number(frame.py(box.median)), "stroke": "#1d4ed8",
                "stroke-width": 2.5,
            ])
        // Dots spread sideways by the golden ratio: deterministic, and rarely on top of each other.
        for (i, value) in box.sorted.enumerated() {
            let spread = (Double(i) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1) - 0.5
            svg.element(
                "circle",
                [
                    "class": "dot", "cx": .number(centre + spread * boxWidth * 0.8), "cy": .number(frame.py(value)),
                    "r": 3.5, "fill": "#0f172a", "fill-opacity": 0.6,
                ])
        }
        let meanX = centre + half + 10
        if let ci = box.confidenceInterval {
            svg.element(
                "path",
                [
                    "class": "ci",
                    "d": .text(
                        "M\(n(meanX - 4)),\(n(frame.py(ci.upperBound)))h8M\(n(meanX)),\(n(frame.py(ci.upperBound)))V\(n(frame.py(ci.lowerBound)))M\(n(meanX - 4)),\(n(frame.py(ci.lowerBound)))h8"
                    ),
                    "stroke": "#dc2626", "stroke-width": 1.5, "fill": "none",
                ])
        }
        svg.element(
            "circle",
            ["class": "mean", "cx": .number(meanX), "cy": .number(frame.py(box.mean)), "r": 4, "fill": "#dc2626"])
    }

    private static func n(_ value: Double) -> String { SVGNumber.format(value) }
}

/// How a metric is shown: durations and paces as times, speeds in km/h, distances in km.
public struct MetricScale: Sendable {
    public let metric: GroupMetric

    public init(_ metric: GroupMetric) { self.metric = metric }

    /// Whether the shown values are seconds (ticks by minutes and hours).
    public var isDuration: Bool { metric == .durationS || metric == .movingTimeS || metric == .avgPaceSPerKm }

    /// The axis title.
    public var title: String {
        switch metric {
        case .durationS: "Duration (h:mm:ss)"
        case .movingTimeS: "Moving time (h:mm:ss)"
        case .avgPaceSPerKm: "Pace (min/km)"
        case .avgSpeedMps: "Average speed (km/h)"
        case .distanceM: "Distance (km)"
        }
    }

    /// An API value in the unit shown.
    public func shown(_ value: Double) -> Double {
        switch metric {
        case .avgSpeedMps: value * 3.6
        case .distanceM: value / 1000
        default: value
        }
    }

    /// A tick label for a shown value.
    public func label(_ value: Double) -> String {
        isDuration ? HumanFormat.duration(value) : ProfileChart.trimmed(value)
    }
}
