import Foundation

/// The regularized incomplete beta function I_x(a, b), and the Student-t tail built on it.
///
/// Method (Numerical Recipes §6.4, as Cephes' `incbet` and Boost's `ibeta` also do):
/// I_x(a, b) = x^a·y^b / (a·B(a, b)) · CF, y = 1 − x, with CF the continued fraction
/// evaluated by the modified Lentz algorithm. It converges fast for x < (a + 1)/(a + b + 2)
/// (in O(√max(a, b)) terms); above that point the symmetry I_x(a, b) = 1 − I_y(b, a) is used,
/// so the subtraction only happens when the result is at least ~½ and loses nothing.
///
/// The prefactor is computed as one exponential of a logarithm, so tiny results (down to the
/// smallest subnormal) neither underflow early nor lose relative precision. Its log B(a, b)
/// comes from `lgamma` when both parameters are small; when one is large (the t distribution
/// has a = df/2, b = ½) lgamma(a) − lgamma(a + b) would cancel ~a·log a to a small difference,
/// so that difference is taken from Stirling's series directly; when both are large the whole
/// prefactor is rearranged around x₀ = a/(a + b) as Boost does (`ibeta_power_terms`).
public enum IncompleteBeta {
    /// I_x(a, b) for a, b > 0 and x in [0, 1]; NaN outside that domain.
    public static func regularized(a: Double, b: Double, x: Double) -> Double {
        regularized(a: a, b: b, x: x, y: 1 - x)
    }

    /// I_x(a, b) with y = 1 − x given separately, so a caller that knows y better than 1 − x
    /// (x close to 1) keeps its precision.
    public static func regularized(a: Double, b: Double, x: Double, y: Double) -> Double {
        guard a > 0, b > 0, a.isFinite, b.isFinite, x >= 0, y >= 0, x <= 1, y <= 1 else { return .nan }
        if x == 0 { return 0 }
        if y == 0 { return 1 }
        if x > (a + 1) / (a + b + 2) { return 1 - lowerTail(a: b, b: a, x: y, y: x) }
        return lowerTail(a: a, b: b, x: x, y: y)
    }

    /// The two-sided tail of Student's t distribution, P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, ½),
    /// for df > 0 (finite). 1 at t = 0, 0 at t = ±∞.
    public static func studentTTwoSided(t: Double, df: Double) -> Double {
        guard !t.isNaN, df > 0, df.isFinite else { return .nan }
        let at = abs(t)
        if at == 0 { return 1 }
        if at.isInfinite { return 0 }
        if at > 1e150 && df < 1e10 {
            // x = df/t² < 1e-290 may not even be representable while p (~x^(df/2)) is, e.g.
            // 6e-201 at t = 1e200, df = 1. There y = 1 and the continued fraction is 1 to
            // rounding, so I_x = x^a / (a·B(a, ½)), taken in logarithms.
            let a = df / 2
            return exp(a * (log(df) - 2 * log(at)) - logBeta(a: a, b: 0.5) - log(a))
        }
        // x = df/(df + t²) and y = t²/(df + t²) from the ratio that is ≤ 1, so t² never
        // overflows (t = 1e200 still has a representable p for small df) and y is not 1 − x.
        let x: Double
        let y: Double
        if at * at > df {
            let r = (df / at) / at
            x = r / (1 + r)
            y = 1 / (1 + r)
        } else {
            let r = (at / df) * at
            x = 1 / (1 + r)
            y = r / (1 + r)
        }
        return regularized(a: df / 2, b: 0.5, x: x, y: y)
    }

    /// I_x(a, b) by the continued fraction, for x ≤ (a + 1)/(a + b + 2).
    static func lowerTail(a: Double, b: Double, x: Double, y: Double) -> Double {
        let front = logPrefactor(a: a, b: b, x: x, y: y)
        return exp(front + log(continuedFraction(a: a, b: b, x: x) / a))
    }

    /// log(x^a·y^b / B(a, b)).
    static func logPrefactor(a: Double, b: Double, x: Double, y: Double) -> Double {
        // log1p of the complement is exact-er than log of a value near 1.
        let logX = x < 0.5 ? log(x) : log1p(-y)
        let logY = y < 0.5 ? log(y) : log1p(-x)
        if min(a, b) >= stirlingMin {
            // log B = ½log(2π) + (a−½)log(a/s) + (b−½)log(b/s) − ½log s + δ(a) + δ(b) − δ(s), so
            // the prefactor is a·log(x/x₀) + b·log(y/y₀) + ½log(ab/s) − ½log(2π) − Δδ, with
            // x/x₀ = 1 + (x·b − y·a)/a: no large terms cancel however big a and b are.
            let s = a + b
            let u = (x * b - y * a) / a
            let v = (y * a - x * b) / b
            let logXRatio = abs(u) < 0.5 ? log1p(u) : logX + log1p(b / a)
            let logYRatio = abs(v) < 0.5 ? log1p(v) : logY + log1p(a / b)
            return a * logXRatio + b * logYRatio + 0.5 * (log(a) + log(b / s)) - halfLogTwoPi
                - (stirlingCorrection(a) + stirlingCorrection(b) - stirlingCorrection(s))
        }
        return a * logX + b * logY - logBeta(a: a, b: b)
    }

    /// log B(a, b) for min(a, b) < ``stirlingMin``: from `lgamma` when both are small, with
    /// the large one's lgamma(z) − lgamma(z + h) from Stirling's series otherwise.
    static func logBeta(a: Double, b: Double) -> Double {
        let small = min(a, b)
        let large = max(a, b)
        if large >= stirlingMin { return lgamma(small) + logGammaRatio(large, small) }
        return lgamma(a) + lgamma(b) - lgamma(a + b)
    }

    /// log Γ(z) − log Γ(z + h) for z ≥ ``stirlingMin``, h > 0, from Stirling's series:
    /// −h·log z − (z + h − ½)·log1p(h/z) + h + δ(z) − δ(z + h), all terms of modest size.
    static func logGammaRatio(_ z: Double, _ h: Double) -> Double {
        -h * log(z) - (z + h - 0.5) * log1p(h / z) + h + stirlingCorrection(z) - stirlingCorrection(z + h)
    }

    /// δ(z) = log Γ(z) − ((z − ½)·log z − z + ½·log 2π), the Stirling series up to z⁻¹⁵; for
    /// z ≥ 8 the first omitted term is below 1e-16, so δ is exact to rounding.
    static func stirlingCorrection(_ z: Double) -> Double {
        let r = 1 / z
        let r2 = r * r
        var sum = -3617.0 / 122_400.0
        sum = sum * r2 + 1.0 / 156.0
        sum = sum * r2 - 691.0 / 360_360.0
        sum = sum * r2 + 1.0 / 1188.0
        sum = sum * r2 - 1.0 / 1680.0
        sum = sum * r2 + 1.0 / 1260.0
        sum = sum * r2 - 1.0 / 360.0
        sum = sum * r2 + 1.0 / 12.0
        return sum * r
    }

    /// The continued fraction of I_x(a, b) (NR `betacf`), by the modified Lentz algorithm.
    /// Stops when a step changes the value by at most one ulp; the iteration cap is far above
    /// the O(√max(a, b)) steps needed below the switch point, so it never binds in practice.
    static func continuedFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = Double.leastNormalMagnitude / Double.ulpOfOne
        let qab = a + b
        let qap = a + 1
        let qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        let maxIterations = 1000 + (20 * max(a, b).squareRoot()).clampedInt(in: 0...10_000_000, rounding: .down)
        for step in 1...maxIterations {
            let m = Double(step)
            let m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) <= Double.ulpOfOne { break }
        }
        return h
    }

    /// Below this, Stirling's series is not used (its truncation error would show).
    static let stirlingMin = 8.0
    /// ½·log(2π).
    static let halfLogTwoPi = 0.918_938_533_204_672_7
}
