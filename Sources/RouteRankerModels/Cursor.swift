import Foundation

/// The opaque cursor's content.
package struct Cursor: Codable, Equatable {
    package var list: String
    package var key: [String]

    package init(list: String, key: [String]) {
        self.list = list
        self.key = key
    }

    package init?(encoded: String) {
        guard encoded.utf8.count <= 2048, let data = Base64URL.decode(encoded),
            let cursor = try? JSONDecoder().decode(Cursor.self, from: data)
        else { return nil }
        self = cursor
    }

    /// Base64url of `{"key":[…],"list":"…"}`, written directly: a page with a next page makes one
    /// of these, and `JSONEncoder` cost 2 % of an inbox page.
    package var encoded: String {
        var writer = JSONWriter(capacity: 128)
        writer.raw("{")
        writer.key("key")
        writer.array(key) { $0.string($1) }
        writer.comma()
        writer.key("list")
        writer.string(list)
        writer.raw("}")
        return Base64URL.encode(writer.bytes)
    }
}

/// One component of a list's cursor key, as the list declares it: what a cursor read back from a
/// client may hold there. A component that does not fit makes the cursor `400`, so that every later
/// use (a comparison, a date, a database filter) works on values known to be in range.
package enum CursorField: Sendable, Equatable {
    /// Exactly this text: a tag such as `SortKeyset`'s `"v"` and `"n"`.
    case literal(String)
    /// Milliseconds since the epoch of a date within years 0001–9999 (``Cursor/millisecondRange``):
    /// every such value converts to a `Date` and back, and into a BSON date, without overflow.
    case milliseconds
    /// An integer in decimal within `range`.
    case integer(ClosedRange<Int64>)
    /// A finite number within `range` (never NaN or infinite, whatever the text says).
    case number(ClosedRange<Double>)
    /// An id: 1–160 bytes of `A–Z a–z 0–9 _ . - :` (object ids, user ids, `route:user` share ids).
    case id
    /// Any text (a name); the cursor's own size bounds it.
    case text

    /// Whether `component` fits this field.
    package func accepts(_ component: String) -> Bool {
        switch self {
        case .literal(let text): return component == text
        case .milliseconds: return Int64(component).map(Cursor.millisecondRange.contains) ?? false
        case .integer(let range): return Int64(component).map(range.contains) ?? false
        case .number(let range):
            guard let value = Double(component), value.isFinite else { return false }
            return range.contains(value)
        case .id:
            return (1...160).contains(component.utf8.count)
                && component.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
                        UInt8(ascii: ":"):
                        true
                    default: false
                    }
                }
        case .text: return true
        }
    }
}

/// The shape of a list's cursor key: one or more alternatives, each a fixed sequence of fields. A
/// key fits when it has exactly the fields of one alternative, each accepting its component.
package struct CursorShape: Sendable, Equatable {
    package var alternatives: [[CursorField]]

    /// A key of exactly `fields`.
    package init(_ fields: CursorField...) { alternatives = [fields] }

    /// A key of any one of `alternatives`.
    package init(alternatives: [[CursorField]]) { self.alternatives = alternatives }

    /// Whether `key` fits one alternative: its arity, and each component's type and range.
    package func accepts(_ key: [String]) -> Bool {
        alternatives.contains { fields in
            fields.count == key.count && zip(fields, key).allSatisfy { $0.accepts($1) }
        }
    }
}

extension Cursor {
    /// The milliseconds of the dates a cursor may hold: 0001-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59.999Z, the dates the API writes (a `Date` and a BSON date hold them all).
    package static let millisecondRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The cursor `encoded` if it is one of `list` and its key fits `shape`; nil for anything
    /// else (not base64url, not JSON, another list's, a key of the wrong arity, type or range).
    package init?(encoded: String, list: String, shape: CursorShape) {
        guard let cursor = Cursor(encoded: encoded), cursor.list == list, shape.accepts(cursor.key) else {
            return nil
        }
        self = cursor
    }
}

/// Code-point order for strings (UTF-8 byte order is code-point order), which the contract uses
/// for names; Swift's `<` on `String` compares Unicode-canonically instead.
package enum CodePoint {
    package static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    package static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return precedes(x, y) }
        return a.count < b.count
    }
}
