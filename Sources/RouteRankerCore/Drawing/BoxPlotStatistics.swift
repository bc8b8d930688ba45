import Foundation

/// What a box plot of one group shows: quartiles, median, extremes, and the mean with its 95 %
/// confidence interval.
///
/// Quartiles are computed by linear interpolation between order statistics: the p-quantile of n
/// sorted values is at position (n − 1)·p, 0-based (Hyndman and Fan's type 7, the default of R and
/// NumPy). The median is the same quantile at p = ½, so it agrees with the API's median. The
/// interval is mean ± t(0.975, n − 1) · s/√n with the sample standard deviation s (Student's t).
public struct BoxPlotStatistics: Sendable, Hashable {
    /// The values, ascending.
    public let sorted: [Double]
    public let q1: Double
    public let median: Double
    public let q3: Double
    public let min: Double
    public let max: Double
    public let mean: Double
    /// The 95 % confidence interval of the mean; nil under 2 values.
    public let confidenceInterval: ClosedRange<Double>?

    /// The statistics of `values` (NaNs left out); nil when none is left.
    public init?(_ values: [Double]) {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        self.sorted = sorted
        min = first
        max = last
        q1 = Self.quantile(sorted, 0.25)
        median = Self.quantile(sorted, 0.5)
        q3 = Self.quantile(sorted, 0.75)
        let moments = SampleMoments(sorted)
        mean = moments.mean ?? first
        if let variance = moments.variance, sorted.count >= 2 {
            let half = Self.tQuantile975(df: Double(sorted.count - 1)) * (variance / Double(sorted.count)).squareRoot()
            // A range of NaN bounds traps: values whose sums overflow (only a damaged record's)
            // have no interval.
            let (lower, upper) = (mean - half, mean + half)
            confidenceInterval = lower <= upper ? lower...upper : nil
        } else {
            confidenceInterval = nil
        }
    }

    /// The p-quantile of ascending `sorted`, type 7 (`p` taken within 0...1, NaN as 0); NaN when
    /// `sorted` is empty.
    public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let p = p.isNaN ? 0 : Swift.min(Swift.max(p, 0), 1)
        let position = Double(sorted.count - 1) * p
        let lower = position.clampedInt(in: 0...(sorted.count - 1), rounding: .down)
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        let between = sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
        // Between −max and +max the difference overflows; the weighted sum of the two does not.
        return between.isFinite ? between : sorted[lower] * (1 - fraction) + sorted[upper] * fraction
    }

    /// t such that P(|T| ≥ t) = 0.05 for Student's t with `df` degrees of freedom (the 97.5 %
    /// quantile), found by bisection on the two-sided tail the Welch test uses.
    public static func tQuantile975(df: Double) -> Double {
        var low = 0.0
        var high = 1000.0  // df = 1 needs 12.71; the tail at 1000 is far below 0.05 for any df ≥ 1
        for _ in 0..<100 {
            let mid = (low + high) / 2
            if IncompleteBeta.studentTTwoSided(t: mid, df: df) > 0.05 { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}
