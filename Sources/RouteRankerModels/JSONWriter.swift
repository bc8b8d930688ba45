import Foundation
import RouteRankerCore

/// A response body that writes its JSON itself, byte for byte what `JSONEncoder.api` would write
/// (keys sorted, `snake_case`, the same numbers and escapes), for the hot reads: the generic
/// encoder's key conversion, boxing and dynamic casts were the largest user-space cost of a
/// route summary in the profile.
package protocol JSONWritable {
    func writeJSON(to writer: inout JSONWriter) throws
}

/// Appends JSON to a byte buffer. Callers write keys in sorted order (as `.sortedKeys` does).
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":` — keys are the caller's constants, never escaped.
    package mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A backslash and `byte`: appended one by one, as an array literal per escape would allocate.
    private mutating func escaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
    }

    package mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    package mutating func null() { raw("null") }

    /// A string as `JSONEncoder` escapes it: `"` and `\`, the short forms of \b \f \n \r \t, other
    /// control characters as `\u00xx`; everything else (slashes included) as is.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): escaped(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): escaped(UInt8(ascii: "\\"))
            case 0x08: escaped(UInt8(ascii: "b"))
            case 0x0C: escaped(UInt8(ascii: "f"))
            case 0x0A: escaped(UInt8(ascii: "n"))
            case 0x0D: escaped(UInt8(ascii: "r"))
            case 0x09: escaped(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                escaped(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A number as `JSONEncoder` writes it: Swift's shortest round-trip form without a trailing
    /// `.0`. Infinity and NaN, which JSON cannot write, are written as `null`.
    ///
    /// Ingest keeps every stored figure finite (the ranges of `PointValidation`), so only a record
    /// stored before those ranges, or damaged, can hold one. Refusing it (as `JSONEncoder` does)
    /// made every list that showed such a route `500` for everyone it was shared with (issue 43,
    /// row 5); `null` answers the list and says "no figure" for that one value.
    package mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            null()
            return
        }
        // Most numbers (coordinates, distances, seconds) have few decimals: written without
        // making `description`'s string, to the same bytes.
        if DecimalNumbers.appendFixedPoint(value, to: &bytes) { return }
        let text = value.description
        if text.hasSuffix(".0") {
            bytes.append(contentsOf: text.utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    package mutating func double(_ value: Double?) throws {
        if let value { try double(value) } else { null() }
    }

    /// An RFC 3339 timestamp, as `JSONEncoder.api` writes dates.
    package mutating func date(_ value: Date) {
        string(Timestamp.string(value))
    }

    package mutating func date(_ value: Date?) {
        if let value { date(value) } else { null() }
    }

    // `value` and `array` are generic and called from the server's module: inlinable, so that
    // they are specialized there (unspecialized, a list page paid a runtime metadata lookup per
    // element: measured 25 % more CPU for an inbox page).
    @inlinable
    package mutating func value(_ value: some JSONWritable) throws {
        try value.writeJSON(to: &self)
    }

    @inlinable
    package mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) throws -> Void)
        rethrows
    {
        raw("[")
        for (i, element) in elements.enumerated() {
            if i > 0 { comma() }
            try write(&self, element)
        }
        raw("]")
    }
}

/// RFC 3339 timestamps as the contract writes them.
package enum Timestamp {
    /// `2026-11-21T23:31:59.123Z`: UTC, always with milliseconds (Core's formatter, which the
    /// downloads use too).
    package static func string(_ date: Date) -> String { RFC3339.formatMilliseconds(date.timeIntervalSince1970) }
}
