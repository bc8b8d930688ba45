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

    /// At most this many tick values, whatever the data and the target: an axis is read, not
    /// counted, and a bound here keeps every picture's size bounded.
    public static let maxCount = 48

    /// The largest magnitude an axis covers: data beyond ±10³⁰⁰ (only a damaged record holds
    /// such values) is drawn at the axis's end. Keeps the ticks, their step and their span finite
    /// (a span of −max…max overflows to infinity, and the step's nice rounding up once more).
    public static let largestCovered = 1e300

    /// Ticks covering `min`...`max` (clamped to ±``largestCovered``; a bound that is not finite
    /// is left out) with about `target` (1...20) intervals, steps 1, 2 or 5 × 10ᵏ.
    public init(min: Double, max: Double, target: Int = 5) {
        self.init(min: min, max: max, target: target, steps: Self.decimalStep)
    }

    /// Ticks for durations in seconds: steps of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min,
    /// 1, 2, 3, 6, 12 h, then decimal multiples of a day.
    public static func duration(min: Double, max: Double, target: Int = 5) -> AxisTicks {
        AxisTicks(min: min, max: max, target: target, steps: durationStep)
    }

    private init(min lowest: Double, max highest: Double, target: Int, steps: (Double) -> Double) {
        let limit = Self.largestCovered
        var low = lowest.isFinite ? Swift.min(Swift.max(lowest, -limit), limit) : 0
        var high = highest.isFinite ? Swift.min(Swift.max(highest, -limit), limit) : Swift.max(low, 0) + 1
        if high < low { swap(&low, &high) }
        // A span too small to divide (it would round away next to the values, or underflow a
        // subnormal step to 0 and the tick count to 0/0) is drawn as a flat series.
        let smallest = Swift.max(abs(low), abs(high)) * 1e-9
        if high - low <= smallest || high - low < 1e-300 {
            // A flat series still gets an axis: one unit around it (or around zero).
            let centre = low / 2 + high / 2
            let pad = abs(centre) < 1e-9 ? 1 : abs(centre) * 0.1
            low = centre - pad
            high = centre + pad
        }
        let intervals = Double(Swift.min(Swift.max(target, 1), 20))
        var step = steps((high - low) / intervals)
        if !(step.isFinite && step > 0) { step = (high - low) / intervals }
        var first = (low / step).rounded(.down)
        var last = (high / step).rounded(.up)
        // A value smaller than the step can resolve (−5e-324 under steps of 1e299) divides to −0:
        // one more step, so that the ticks still cover it.
        if first * step > low { first -= 1 }
        if last * step < high { last += 1 }
        // |low|, |high| ≤ 10³⁰⁰ and a nice step of at least the span over 20: about 20 intervals
        // and never more than ``maxCount`` ticks; the clamp only states that bound.
        let count = (last - first).clampedInt(in: 1...(Self.maxCount - 1))
        self.step = step
        // Integer multiples of the step, so that 0.1 + 0.2 never shows up as 0.30000000000000004.
        values = (0...count).map { (first + Double($0)) * step }
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
