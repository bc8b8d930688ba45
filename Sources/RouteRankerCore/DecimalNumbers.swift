/// Number text in and out of every format, so all of them agree.
///
/// Output is the shortest decimal that reads back as the same `Double` (Swift's `description`),
/// but always positional — `0.00001`, never `1e-05` — because GPX's `xsd:decimal` forbids
/// exponents, and without a trailing `.0` (`5`, not `5.0`). Valid JSON, CSV, GPX and phone text.
public enum DecimalNumbers {
    /// The shortest round-trip positional decimal of a finite `x` (`"null"` if not finite).
    public static func format(_ x: Double) -> String {
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
