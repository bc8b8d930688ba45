/// The outcome of Welch's two-sided t-test: `{"t","df","p_value"}` in API.md's `pairs`.
public struct WelchResult: Sendable, Hashable, Codable {
    /// (mean(a) − mean(b)) / √(var(a)/n(a) + var(b)/n(b)).
    public var t: Double
    /// Welch–Satterthwaite degrees of freedom.
    public var df: Double
    /// Two-sided p-value, P(|T| ≥ |t|) for T ~ Student's t with `df` degrees of freedom.
    public var pValue: Double

    /// A result as given.
    public init(t: Double, df: Double, pValue: Double) {
        self.t = t
        self.df = df
        self.pValue = pValue
    }

    private enum CodingKeys: String, CodingKey {
        case t, df
        case pValue = "p_value"
    }
}

/// Welch's unequal-variance t-test (what `scipy.stats.ttest_ind(a, b, equal_var=False)` does).
public enum WelchTest {
    /// The test of `a` against `b`; nil when either has fewer than 2 values or both
    /// variances are 0 (API.md: `t`, `df` and `p_value` are then `null`).
    public static func compare(a: [Double], b: [Double]) -> WelchResult? {
        compare(SampleMoments(a), SampleMoments(b))
    }

    /// The test from each group's count, mean and sample variance.
    public static func compare(_ a: SampleMoments, _ b: SampleMoments) -> WelchResult? {
        guard a.count >= 2, b.count >= 2, let meanA = a.mean, let meanB = b.mean,
            let varA = a.variance, let varB = b.variance
        else { return nil }
        let sa = varA / Double(a.count)
        let sb = varB / Double(b.count)
        let se2 = sa + sb
        guard se2 > 0, se2.isFinite else { return nil }
        let t = (meanA - meanB) / se2.squareRoot()
        // Welch–Satterthwaite, with the squares taken of ratios to the larger term so that
        // neither tiny nor huge variances underflow or overflow on the way.
        let scale = max(sa, sb)
        let ra = sa / scale
        let rb = sb / scale
        let df = (ra + rb) * (ra + rb) / (ra * ra / Double(a.count - 1) + rb * rb / Double(b.count - 1))
        return WelchResult(t: t, df: df, pValue: IncompleteBeta.studentTTwoSided(t: t, df: df))
    }

    /// The test between two groups' statistics (their values with a metric).
    public static func compare(_ a: GroupStatistics, _ b: GroupStatistics) -> WelchResult? {
        compare(a.moments, b.moments)
    }
}

/// One entry of `compare`'s `pairs`: `{"a","b","mean_diff","ratio","t","df","p_value"}`.
public struct PairComparison: Sendable, Hashable {
    /// mean(a) − mean(b); nil when either mean is nil.
    public var meanDiff: Double?
    /// mean(a) / mean(b); nil when either mean is nil or mean(b) is 0.
    public var ratio: Double?
    /// Welch's test; nil under 2 values in either group or when both variances are 0.
    public var welch: WelchResult?

    /// The comparison of group `a` with group `b` (order matters: a before b).
    public init(_ a: GroupStatistics, _ b: GroupStatistics) {
        if let ma = a.mean, let mb = b.mean {
            meanDiff = ma - mb
            ratio = mb == 0 ? nil : ma / mb
        }
        welch = WelchTest.compare(a, b)
    }
}

extension GroupStatistics {
    /// Count, mean and variance, as Welch's test takes them.
    public var moments: SampleMoments { SampleMoments(count: count, mean: mean, variance: variance) }
}
