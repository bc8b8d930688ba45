/// Number text in and out of every format, so all of them agree.
///
/// Output is the shortest decimal that reads back as the same `Double` (Swift's `description`),
/// but always positional — `0.00001`, never `1e-05` — because GPX's `xsd:decimal` forbids
/// exponents, and without a trailing `.0` (`5`, not `5.0`). Valid JSON, CSV, GPX and phone text.
public enum DecimalNumbers {
    /// The shortest round-trip positional decimal of a finite `x` (`"null"` if not finite).
    public static func format(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if let fixed = FixedPoint(x) { return fixed.text }
        return general(x)
    }

    /// ``format(_:)`` through `description` alone, for every number the fixed-point path leaves
    /// (and for tests to compare that path with).
    static func general(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        var s = x.description
        switch shape(of: &s) {
        case .plain: return s
        case .wholeWithPointZero:
            s.removeLast(2)
            return s
        case .exponent: return expand(s)
        }
    }

    /// Appends ``format(_:)`` of `x` to `out` without making a string of its own when it is
    /// positional already (the hot path of every download).
    public static func append(_ x: Double, to out: inout String) {
        guard x.isFinite else { return out.append("null") }
        if let fixed = FixedPoint(x) { return out.append(fixed.text) }
        var s = x.description
        switch shape(of: &s) {
        case .plain: out.append(s)
        case .wholeWithPointZero:
            // The digits without `.0` as a new string: at most 15 bytes are stored inline, and
            // trimming `s` in place costs a grapheme walk.
            s.withUTF8 { out.append(String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast(2)), as: UTF8.self)) }
        case .exponent: out.append(expand(s))
        }
    }

    /// A number as an integer `digits` over 10^`fractionDigits`, found with a few multiplications
    /// and divisions instead of `description`'s general shortest-digits search (which, with the
    /// string it makes, was most of a JSON download's CPU). GPS data is mostly such numbers: a
    /// coordinate with 5–7 decimals, whole seconds, elevations in tenths.
    ///
    /// Exact, and the same text as `description` gives: `digits` and 10^k are exact doubles and
    /// IEEE division is correctly rounded, so `digits / 10^k == x` holds exactly when the decimal
    /// reads back as `x` (a correctly rounded parse gives the same nearest double). Trying k from 0
    /// up finds the fewest fraction digits, which is the fewest significant digits; and it keeps
    /// only a k at which a single decimal reads back, which is then the one shortest decimal that
    /// `description` prints. Why checking `m - 1`, `m`, `m + 1` suffices: `m` is `x`·10^k rounded
    /// after a multiplication off by at most ½ (the product stays below 2^52), so it lies within 1
    /// of the exact product; the decimals that read back as `x` form an interval symmetric about
    /// it (powers of two, whose interval is lopsided, are left to `description`), so if any does,
    /// the nearest to the product does and is one of the three; and if one of the three does but
    /// another integer also does, so does a second of the three (the interval reaches past the
    /// product by at least as much as that integer does). `RouteRankerCoreTests` compares it with
    /// `description` on millions of numbers.
    struct FixedPoint {
        let negative: Bool
        let digits: UInt64
        let fractionDigits: Int

        /// Nil when `x` has no such form below 2^52 with up to 15 fraction digits, is zero, a power
        /// of two, or smaller than 0.001 in magnitude: `description` decides those.
        init?(_ x: Double) {
            let magnitude = x.magnitude
            guard magnitude >= 0.001, magnitude < 1e15, x.significandBitPattern != 0 else { return nil }
            let ulp = magnitude.ulp
            var scale = 1.0
            for k in 0...15 {
                let product = magnitude * scale
                guard product < 4_503_599_627_370_496 else { return nil }  // 2^52
                // `product.rounded(.toNearestOrEven)` without a call into libm (a fifth of this
                // search): below 2^52, adding 2^52 leaves doubles one apart, so the sum is the
                // product rounded to the nearest integer, ties to even, and the subtraction is exact.
                let m = (product + 0x1p52) - 0x1p52
                // A decimal c/10^k that reads back as x lies within ulp(x)/2 of it, so c lies within
                // ulp(x)·10^k/2 + ulp(product)/2 of `product`; `reach` is more than twice that
                // (product·2^-52 ≥ ulp(product)). When `m` is farther and `reach` is under ½ (so
                // `m ± 1`, at least ½ away, are farther too), no decimal of this length reads
                // back: on to the next without dividing.
                let reach = ulp * scale + product * 0x1p-52
                if reach < 0.5, (m - product).magnitude > reach {
                    scale *= 10
                    continue
                }
                let below = (m - 1) / scale == magnitude
                let at = m / scale == magnitude
                let above = (m + 1) / scale == magnitude
                switch (below, at, above) {
                case (false, false, false):
                    scale *= 10
                    continue
                case (true, false, false): digits = UInt64(m - 1)
                case (false, true, false): digits = UInt64(m)
                case (false, false, true): digits = UInt64(m + 1)
                default: return nil  // several decimals of this length read back: the closest is description's
                }
                negative = x < 0
                fractionDigits = k
                return
            }
            return nil
        }

        /// The most bytes ``text`` has: a sign, 16 digits, a point and 15 more.
        static let maxLength = 40

        /// `[-]int[.frac]`, without a trailing zero in the fraction.
        var text: String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxLength) { buffer in
                let start = fill(buffer)
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
            }
        }

        /// Appends ``text`` to `out`.
        func write(to out: inout [UInt8]) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxLength) { buffer in
                let start = fill(buffer)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
            }
        }

        /// Writes ``text`` into `buffer` at `start`; returns the index after it.
        func write(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
            var digitCount = 1
            var power: UInt64 = 10
            // `digits` < 2^52 < 10^16: `power` stays far from overflowing.
            while digits >= power {
                digitCount += 1
                power *= 10
            }
            let length =
                (negative ? 1 : 0) + max(digitCount, fractionDigits + 1) + (fractionDigits > 0 ? 1 : 0)
            precondition(start + length <= buffer.count, "FixedPoint: buffer too small")
            // `fill` writes backwards from the end of what it is given: given exactly `length`
            // bytes, it starts at their first.
            _ = fill(UnsafeMutableBufferPointer(rebasing: buffer[start..<start + length]))
            return start + length
        }

        /// Writes ``text`` at the end of `buffer`, from its last digit backwards (the point after
        /// `fractionDigits` digits, at least one digit before the point); returns where it starts.
        /// The fraction goes two digits per division by 100, which halves the chain of dependent
        /// divisions a coordinate's seven decimals make.
        private func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            let zero = UInt8(ascii: "0")
            var end = buffer.count
            var rest = digits
            var fraction = fractionDigits
            while fraction >= 2 {
                let quotient = rest / 100
                let pair = UInt8(truncatingIfNeeded: rest - quotient * 100)
                buffer[end - 1] = zero + pair % 10
                buffer[end - 2] = zero + pair / 10
                end -= 2
                rest = quotient
                fraction -= 2
            }
            if fraction == 1 {
                end -= 1
                buffer[end] = zero + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            if fractionDigits > 0 {
                end -= 1
                buffer[end] = UInt8(ascii: ".")
            }
            repeat {
                end -= 1
                buffer[end] = zero + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if negative {
                end -= 1
                buffer[end] = UInt8(ascii: "-")
            }
            return end
        }
    }

    /// Appends ``format(_:)`` of `x` to `out` as UTF-8 bytes, the fixed-point digits written in
    /// place.
    public static func append(_ x: Double, to out: inout [UInt8]) {
        guard x.isFinite else { return out.append(literal: "null") }
        guard let fixed = FixedPoint(x) else { return out.append(contentsOf: general(x).utf8) }
        fixed.write(to: &out)
    }

    /// Appends the text of `x` if it takes the fixed-point path (``FixedPoint``), which is then
    /// byte for byte `description`'s without a trailing `.0`; false, appending nothing, otherwise.
    /// For writers that follow `description` rather than this type's positional rule (the JSON API,
    /// as `JSONEncoder` writes numbers).
    public static func appendFixedPoint(_ x: Double, to out: inout [UInt8]) -> Bool {
        guard let fixed = FixedPoint(x) else { return false }
        fixed.write(to: &out)
        return true
    }

    /// What `description` wrote, told apart in one pass over its bytes (the generic `contains` and
    /// `hasSuffix` on a string cost more than the number's own conversion).
    private enum Shape {
        case plain, wholeWithPointZero, exponent
    }

    private static func shape(of text: inout String) -> Shape {
        text.withUTF8 { bytes in
            if bytes.contains(UInt8(ascii: "e")) { return .exponent }
            let n = bytes.count
            return n >= 2 && bytes[n - 2] == UInt8(ascii: ".") && bytes[n - 1] == UInt8(ascii: "0")
                ? .wholeWithPointZero : .plain
        }
    }

    /// Rewrites `d.ddde±x` positionally.
    private static func expand(_ s: String) -> String {
        let parts = s.split(separator: "e")
        var mantissa = Substring(parts[0])
        let exponent = Int(parts[1])!
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(pieces[0]) + (pieces.count > 1 ? String(pieces[1]) : "")
        var point = pieces[0].count + exponent  // digits before the decimal point
        while digits.count > 1 && digits.hasSuffix("0") && digits.count > point { digits.removeLast() }
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        let intPart = digits.prefix(point)
        let fracPart = digits.dropFirst(point)
        return (negative ? "-" : "") + intPart + (fracPart.isEmpty ? "" : "." + fracPart)
    }

    /// Parses a decimal number: optional sign, digits with an optional fraction (at least one
    /// digit in all), optional exponent. No `nan`, `inf`, hex or surrounding whitespace.
    /// The conversion is correctly rounded (Swift's `Double(_:)`).
    public static func parse(_ text: some StringProtocol) -> Double? {
        var digits = 0
        var state = 0  // 0 sign, 1 int, 2 fraction, 3 exponent sign, 4 exponent digits
        var exponentDigits = 0
        for b in text.utf8 {
            switch (state, b) {
            case (0, UInt8(ascii: "+")), (0, UInt8(ascii: "-")): state = 1
            case (0...1, UInt8(ascii: "0")...UInt8(ascii: "9")), (2, UInt8(ascii: "0")...UInt8(ascii: "9")):
                digits += 1
                if state == 0 { state = 1 }
            case (0...1, UInt8(ascii: ".")): state = 2
            case (0...2, UInt8(ascii: "e")), (0...2, UInt8(ascii: "E")):
                guard digits > 0 else { return nil }
                state = 3
            case (3, UInt8(ascii: "+")), (3, UInt8(ascii: "-")): state = 4
            case (3...4, UInt8(ascii: "0")...UInt8(ascii: "9")):
                exponentDigits += 1
                state = 4
            default: return nil
            }
        }
        guard digits > 0, state < 3 || exponentDigits > 0 else { return nil }
        return Double(String(text))
    }
}
