import Foundation

/// "Nice" axis ticks: round numbers (1, 2 or 5 times a power of ten, or whole minutes and hours for
/// times) that cover the data: the first tick is at or below the lowest value and the last at or
/// above the highest.
public struct AxisTicks: Sendable, Hashable {
    /// The tick values, ascending, evenly spaced by ``step``.
    public let values: [Double]
    /// The distance between two ticks.
    public let step: Double

    /// The axis runs from the first tick to the last.
    public var lower: Double { values.first ?? 0 }
    public var upper: Double { values.last ?? 1 }

    /// Ticks covering `min`...`max` with about `target` intervals, steps 1, 2 or 5 × 10ᵏ.
    public init(min: Double, max: Double, target: Int = 5) {
        self.init(min: min, max: max, target: target, steps: Self.decimalStep)
    }

    /// Ticks for durations in seconds: steps of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min,
    /// 1, 2, 3, 6, 12 h, then decimal multiples of a day.
    public static func duration(min: Double, max: Double, target: Int = 5) -> AxisTicks {
        AxisTicks(min: min, max: max, target: target, steps: durationStep)
    }

    private init(min lowest: Double, max highest: Double, target: Int, steps: (Double) -> Double) {
        var low = lowest.isFinite ? lowest : 0
        var high = highest.isFinite ? highest : 1
        if high < low { swap(&low, &high) }
        if high == low {
            // A flat series still gets an axis: one unit around it (or around zero).
            let pad = low == 0 ? 1 : abs(low) * 0.1
            low -= pad
            high += pad
        }
        let step = steps((high - low) / Double(Swift.max(target, 1)))
        let first = (low / step).rounded(.down)
        let last = (high / step).rounded(.up)
        let count = Int(last - first)
        self.step = step
        // Integer multiples of the step, so that 0.1 + 0.2 never shows up as 0.30000000000000004.
        values = (0...Swift.max(count, 1)).map { (first + Double($0)) * step }
    }

    static func decimalStep(_ raw: Double) -> Double {
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / magnitude
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * magnitude
    }

    static func durationStep(_ raw: Double) -> Double {
        let steps: [Double] = [
            1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
        ]
        if let step = steps.first(where: { $0 >= raw }) { return step }
        return 86400 * decimalStep(raw / 86400)
    }
}
