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
        try expect(UInt8(ascii: "{"))
        skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                if let member = Self.members.firstIndex(of: key) {
                    let value = try numberOrNull(key)
                    let bit: UInt8 = 1 << member
                    if seen & bit == 0 {
                        seen |= bit
                        switch member {
                        case 0: raw.lat = value
                        case 1: raw.lon = value
                        case 2: raw.t = value
                        case 3: raw.ele = value
                        default: raw.acc = value
                        }
                    }
                } else {
                    try skipValue(depth: 1)
                }
                skipSpace()
                if current == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        return raw
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

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, converted with correct rounding.
    mutating func number() throws(Failure) -> Double {
        let start = i
        if current == UInt8(ascii: "-") { i += 1 }
        if current == UInt8(ascii: "0") {
            i += 1
        } else {
            guard try digits() > 0 else { throw .syntax }
        }
        if current == UInt8(ascii: ".") {
            i += 1
            guard try digits() > 0 else { throw .syntax }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            guard try digits() > 0 else { throw .syntax }
        }
        guard let value = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw .syntax }
        return value
    }

    mutating func digits() throws(Failure) -> Int {
        let start = i
        while current >= UInt8(ascii: "0") && current <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

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
