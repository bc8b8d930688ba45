/// A strict (RFC 8259) reader of one flat point object, `{"lat":…,"lon":…,"t":…}`, for NDJSON
/// lines: several times faster than a `JSONDecoder` per line, which matters for long streams.
///
/// Same rules as ``ValidatedPoints``: `lat`/`lon`/`t`/`ele`/`acc` must be numbers or `null`
/// (absent); other members may hold any JSON value and are skipped (still checked for syntax,
/// nesting at most 64 deep); a repeated member's first value wins, as with Foundation's
/// `JSONDecoder`. Unlike that decoder it is strict where RFC 8259 is: no trailing commas,
/// no unknown escapes, no raw control characters in strings.
struct PointObjectScanner {
    enum Failure: Error, Equatable {
        /// Not a JSON object.
        case syntax
        /// A point member holds something other than a number or null.
        case notANumber(String)
    }

    private static let members = ["lat", "lon", "t", "ele", "acc"]
    let bytes: [UInt8]
    /// The index of the next byte to read.
    var i = 0
    /// Whether a number beyond a double's range (one that rounds to infinity, or a non-zero one
    /// that rounds to zero) is refused as `.syntax` rather than read as that.
    var refusesOutOfRange = false

    /// Reads `line`, which must hold exactly one JSON object (whitespace around it allowed).
    static func scan(_ line: [UInt8]) throws(Failure) -> RawPoint {
        var s = PointObjectScanner(bytes: line)
        s.skipSpace()
        let raw = try s.pointObject()
        s.skipSpace()
        guard s.i == s.bytes.count else { throw .syntax }
        return raw
    }

    /// A scanner at the start of `bytes`.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, or 0 at the end.
    var current: UInt8 { i < bytes.count ? bytes[i] : 0 }

    /// The point object starting at the current byte; stops right after its `}`.
    mutating func pointObject() throws(Failure) -> RawPoint {
        var raw = RawPoint()
        var seen: UInt8 = 0  // one bit per point member
        try object(syntax: Failure.syntax) { (s: inout PointObjectScanner) throws(Failure) in
            let member = try s.memberIndex()
            try s.colon()
            guard let member else { return try s.skipValue(depth: 1) }
            let value = try s.numberOrNull(Self.members[member])
            let bit: UInt8 = 1 << member
            guard seen & bit == 0 else { return }
            seen |= bit
            switch member {
            case 0: raw.lat = value
            case 1: raw.lon = value
            case 2: raw.t = value
            case 3: raw.ele = value
            default: raw.acc = value
            }
        }
        return raw
    }

    /// Reads the object starting at the current byte, stopping right after its `}`: `member` is
    /// called at each member's key and must read the key, `colon()` and the value. Malformed
    /// punctuation throws `syntax`.
    mutating func object<E: Error>(syntax: E, _ member: (inout PointObjectScanner) throws(E) -> Void) throws(E) {
        guard current == UInt8(ascii: "{") else { throw syntax }
        i += 1
        skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipSpace()
            try member(&self)
            skipSpace()
            if current == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw syntax }
            i += 1
            return
        }
    }

    /// The `:` between a key and its value, with the spaces around it.
    mutating func colon() throws(Failure) {
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
    }

    private mutating func numberOrNull(_ key: String) throws(Failure) -> Double? {
        switch current {
        case UInt8(ascii: "n"):
            try literal("null")
            return nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            try skipValue(depth: 1)  // a syntax error still wins over the type error
            throw .notANumber(key)
        }
    }

    /// Which point member the key at the current byte names (an index into `members`), or nil
    /// for any other key. Compares the raw bytes when the key has no escapes: no `String` is made
    /// for the five keys of every point (making one was a tenth of a bulk append's CPU).
    private mutating func memberIndex() throws(Failure) -> Int? {
        try expect(UInt8(ascii: "\""))
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
            i += 1
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
            i = start - 1
            return Self.members.firstIndex(of: try string())
        }
        i += 1
        return bytes.withUnsafeBufferPointer { all in
            let key = UnsafeBufferPointer(rebasing: all[start..<i - 1])
            return Self.members.firstIndex { $0.utf8.elementsEqual(key) }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, converted with correct rounding.
    ///
    /// Numbers of at most 19 significant digits whose value is an integer up to 2^53 times a power
    /// of ten up to 10^22 (every GPS coordinate, time and elevation as phones write them) are
    /// converted with one multiplication or division of two exact doubles, which IEEE 754 rounds
    /// correctly (Clinger's fast path); the rest go through the C library's `strtod`.
    mutating func number() throws(Failure) -> Double {
        let start = i
        let negative = current == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var scale = 0  // the power of ten the mantissa is multiplied by
        var exact = true
        func take(_ digit: UInt8, fraction: Bool) {
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                if fraction { scale -= 1 }
            } else {
                if digit != UInt8(ascii: "0") { exact = false }
                if !fraction { scale += 1 }
            }
        }
        if current == UInt8(ascii: "0") {
            i += 1
        } else {
            guard isDigit(current) else { throw .syntax }
            while isDigit(current) {
                take(current, fraction: false)
                i += 1
            }
        }
        if current == UInt8(ascii: ".") {
            i += 1
            guard isDigit(current) else { throw .syntax }
            while isDigit(current) {
                take(current, fraction: true)
                i += 1
            }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                exponentNegative = current == UInt8(ascii: "-")
                i += 1
            }
            guard isDigit(current) else { throw .syntax }
            var exponent = 0
            while isDigit(current) {
                exponent = min(exponent * 10 + Int(current - UInt8(ascii: "0")), 100_000)
                i += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        if exact, mantissa <= 1 << 53, abs(scale) <= 22 {
            let value = Double(mantissa)
            let magnitude = scale < 0 ? value / Self.powersOfTen[-scale] : value * Self.powersOfTen[scale]
            return negative ? -magnitude : magnitude
        }
        guard let value = Double(String(decoding: bytes[start..<i], as: UTF8.self)),
            !refusesOutOfRange || (value.isFinite && (value != 0 || mantissa == 0))
        else { throw .syntax }
        return value
    }

    /// 10^0 … 10^22: every power of ten a double holds exactly.
    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A string, escapes decoded; control characters must be escaped.
    mutating func string() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw .syntax }
            let b = bytes[i]
            i += 1
            switch b {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case 0..<0x20: throw .syntax
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { throw .syntax }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    // Keys that matter are ASCII; other code points only need to be well-formed.
                    let code = try hex4()
                    if code < 0x80 { out.append(UInt8(code)) } else { out.append(contentsOf: [0xEF, 0xBF, 0xBD]) }
                default: throw .syntax
                }
            default: out.append(b)
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw .syntax }
        var v: UInt32 = 0
        for b in bytes[i..<i + 4] {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v * 16 + UInt32(b - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v * 16 + UInt32(b - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v * 16 + UInt32(b - 55)
            default: throw .syntax
            }
        }
        i += 4
        return v
    }

    mutating func skipValue(depth: Int) throws(Failure) {
        guard depth <= 64 else { throw .syntax }
        switch current {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let isObject = current == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            i += 1
            skipSpace()
            if current == close {
                i += 1
                return
            }
            while true {
                skipSpace()
                if isObject {
                    _ = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                }
                try skipValue(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                try expect(close)
                return
            }
        default: throw .syntax
        }
    }

    mutating func literal(_ word: String) throws(Failure) {
        for b in word.utf8 {
            guard current == b else { throw .syntax }
            i += 1
        }
    }

    mutating func expect(_ b: UInt8) throws(Failure) {
        guard current == b else { throw .syntax }
        i += 1
    }

    mutating func skipSpace() {
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D) {
            i += 1
        }
    }
}
