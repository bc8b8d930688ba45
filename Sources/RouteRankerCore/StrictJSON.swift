/// RFC 8259 JSON and nothing more. Foundation's `JSONDecoder` on Linux also takes some JSON5 (a
/// trailing comma, for one), so request bodies are checked here first: a trailing comma, a
/// comment, `NaN` or `Infinity`, a single-quoted string, a leading zero, a control character in a
/// string or anything after the value is a ``FormatError`` naming the byte offset.
///
/// The check is one pass with an explicit stack (no recursion, so no nesting depth can overflow
/// the call stack; nesting deeper than ``maxDepth`` is refused). It does not decode anything.
public enum StrictJSON {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 512

    /// Throws unless `bytes` is exactly one RFC 8259 JSON text.
    public static func validate(_ bytes: some Collection<UInt8>) throws {
        let array = Array(bytes)
        // RFC 8259 §8.1: JSON text is UTF-8. (Found by fuzzing: a 0xFF inside a string passed.)
        guard String(validating: array, as: UTF8.self) != nil else {
            throw FormatError.body("the body is not valid JSON: it is not UTF-8")
        }
        var scanner = Scanner(bytes: array)
        try scanner.document()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private enum Container { case array, object }

        func fail(_ problem: String) -> FormatError {
            FormatError.body("the body is not valid JSON: \(problem) at byte \(i)")
        }

        mutating func skipWhitespace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func document() throws {
            var stack: [Container] = []
            skipWhitespace()
            // Each turn reads one value, then closes whatever that value ends.
            while true {
                skipWhitespace()
                guard i < bytes.count else { throw fail("unexpected end") }
                switch bytes[i] {
                case UInt8(ascii: "{"):
                    i += 1
                    skipWhitespace()
                    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                        i += 1
                    } else {
                        guard stack.count < StrictJSON.maxDepth else { throw fail("nesting too deep") }
                        stack.append(.object)
                        try key()
                        continue
                    }
                case UInt8(ascii: "["):
                    i += 1
                    skipWhitespace()
                    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                        i += 1
                    } else {
                        guard stack.count < StrictJSON.maxDepth else { throw fail("nesting too deep") }
                        stack.append(.array)
                        continue
                    }
                case UInt8(ascii: "\""): try string()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
                case UInt8(ascii: "t"): try literal("true")
                case UInt8(ascii: "f"): try literal("false")
                case UInt8(ascii: "n"): try literal("null")
                default: throw fail("unexpected character")
                }
                // After a value: a comma continues its container, a bracket closes it.
                while true {
                    skipWhitespace()
                    guard let top = stack.last else {
                        guard i == bytes.count else { throw fail("unexpected data after the value") }
                        return
                    }
                    guard i < bytes.count else { throw fail("unexpected end") }
                    let byte = bytes[i]
                    if byte == UInt8(ascii: ",") {
                        i += 1
                        if top == .object { try key() }
                        break
                    }
                    guard byte == UInt8(ascii: top == .array ? "]" : "}") else {
                        throw fail("expected ',' or '\(top == .array ? "]" : "}")'")
                    }
                    i += 1
                    stack.removeLast()
                }
            }
        }

        /// A member name and its colon.
        mutating func key() throws {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in quotes")
            }
            try string()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
        }

        mutating func string() throws {
            i += 1  // the opening quote
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "\""):
                    i += 1
                    return
                case UInt8(ascii: "\\"):
                    i += 1
                    guard i < bytes.count else { throw fail("unexpected end") }
                    switch bytes[i] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 1
                    case UInt8(ascii: "u"):
                        let unit = try escapedUnit()
                        // RFC 8259 §8.2: a string of unpaired surrogates is not Unicode, and
                        // decoders differ on it (Foundation refuses it; found by fuzzing).
                        if (0xDC00...0xDFFF).contains(unit) { throw fail("unpaired surrogate in a \\u escape") }
                        if (0xD800...0xDBFF).contains(unit) {
                            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                            else { throw fail("unpaired surrogate in a \\u escape") }
                            i += 1
                            guard (0xDC00...0xDFFF).contains(try escapedUnit()) else {
                                throw fail("unpaired surrogate in a \\u escape")
                            }
                        }
                    default: throw fail("bad escape")
                    }
                case 0..<0x20: throw fail("control character in a string")
                default: i += 1
                }
            }
            throw fail("unterminated string")
        }

        /// Reads the four hex digits after the `u` at `i` and moves past them.
        mutating func escapedUnit() throws -> UInt16 {
            guard i + 4 < bytes.count, bytes[(i + 1)...(i + 4)].allSatisfy(Self.isHexDigit) else {
                throw fail("bad \\u escape")
            }
            let hex = String(decoding: bytes[(i + 1)...(i + 4)], as: UTF8.self)
            i += 5
            return UInt16(hex, radix: 16) ?? 0
        }

        mutating func number() throws {
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, Self.isDigit(bytes[i]) else { throw fail("bad number") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if i < bytes.count, Self.isDigit(bytes[i]) { throw fail("leading zero in a number") }
            } else {
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, Self.isDigit(bytes[i]) else { throw fail("bad number") }
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard i < bytes.count, Self.isDigit(bytes[i]) else { throw fail("bad number") }
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
            }
        }

        mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard i + expected.count <= bytes.count, Array(bytes[i..<(i + expected.count)]) == expected else {
                throw fail("unexpected word")
            }
            i += expected.count
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }
    }
}
