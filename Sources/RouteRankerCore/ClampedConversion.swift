/// Checked conversions of floating values to integers: `Int(someDouble)` traps (stopping the whole
/// server) when the value is NaN, infinite or beyond the integer's range, and a value that came
/// from a request or a stored document can be any of those. These never trap: the value is
/// rounded by `rule`, then clamped into the range the caller states (NaN gives the range's lower
/// bound), so every call site says what it can hold. See docs/design.md, "No trap reachable from
/// input", and `scripts/check-traps`, which flags a bare conversion.
extension BinaryFloatingPoint {
    /// This value rounded by `rule` as an `Int` within `range`: below it → the lower bound, above
    /// it (or +∞) → the upper bound, NaN → the lower bound.
    public func clampedInt(
        in range: ClosedRange<Int>, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> Int {
        clamped(in: range, rounding: rule)
    }

    /// This value rounded by `rule` as an `Int64` within `range` (as ``clampedInt(in:rounding:)``).
    public func clampedInt64(
        in range: ClosedRange<Int64>, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> Int64 {
        clamped(in: range, rounding: rule)
    }

    /// This value rounded by `rule` as an integer of type `I` within `range`.
    public func clamped<I: FixedWidthInteger>(
        in range: ClosedRange<I>, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> I {
        guard !isNaN else { return range.lowerBound }
        let whole = rounded(rule)
        // Compared as floating values first: a bound converts to the nearest representable value,
        // and between a bound and that value lies no representable one, so what passes both
        // comparisons is an integral value inside the range and converts exactly.
        if whole <= Self(range.lowerBound) { return range.lowerBound }
        if whole >= Self(range.upperBound) { return range.upperBound }
        return I(exactly: whole).map { Swift.min(Swift.max($0, range.lowerBound), range.upperBound) }
            ?? range.lowerBound
    }
}
