import Foundation
import RouteRankerModels

// The `cursor` target (issue 43, rows 1 and 10: a forged cursor trapped on an index and overflowed
// a date). Two parts from one input: the bytes as a cursor (base64url of JSON) must read back
// through their own encoding; and the bytes as a key (components split at 0x1F, the first byte
// picking one list's shape) must, when a shape accepts them, read at every declared type without a
// trap and within its range — a date in milliseconds to a `Date` and back to the same milliseconds,
// a number finite, an integer in range, an id in its alphabet — which is what every list's code
// relies on after `PageRequest` checked the shape.

/// Checks one `cursor` input; a broken invariant stops the process (a crash libFuzzer reports).
func fuzzCursor(_ bytes: [UInt8]) {
    if let cursor = Cursor(encoded: String(decoding: bytes, as: UTF8.self)) {
        precondition(Cursor(encoded: cursor.encoded) == cursor, "a cursor did not survive encoding")
        for shape in CursorShape.allLists where shape.accepts(cursor.key) { checkKey(cursor.key, of: shape) }
    }
    guard let first = bytes.first else { return }
    let key = bytes.dropFirst().split(separator: 0x1F, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let shapes = CursorShape.allLists
    let shape = shapes[Int(first) % shapes.count]
    guard shape.accepts(key) else { return }
    checkKey(key, of: shape)
    // What a list accepts survives the trip through a cursor it hands out, and is accepted again
    // (within the 2,048 bytes a cursor may have: only a long name can pass them).
    let encoded = Cursor(list: "l", key: key).encoded
    guard encoded.utf8.count <= 2048 else { return }
    let again = Cursor(encoded: encoded, list: "l", shape: shape)
    precondition(again?.key == key, "an accepted key did not survive a cursor")
}

/// Reads every component of `key` at the type its alternative of `shape` declares.
func checkKey(_ key: [String], of shape: CursorShape) {
    let matching = shape.alternatives.filter { fields in
        fields.count == key.count && zip(fields, key).allSatisfy { $0.accepts($1) }
    }
    precondition(!matching.isEmpty, "accepted without a matching alternative")
    for fields in matching {
        for (field, component) in zip(fields, key) {
            switch field {
            case .literal(let text):
                precondition(component == text)
            case .milliseconds:
                guard let ms = Int64(component) else { preconditionFailure("a date that is not an integer") }
                precondition(Cursor.millisecondRange.contains(ms))
                // As the lists use it: a `Date` from the milliseconds, and its milliseconds again
                // (`millisecondsKey` converts a Double to Int64: it must not trap, and must agree).
                let date = Date(timeIntervalSince1970: Double(ms) / 1000)
                precondition(Int64(date.millisecondsKey) == ms, "a date did not read back: \(component)")
            case .integer(let range):
                guard let value = Int64(component) else { preconditionFailure("an integer that does not read") }
                precondition(range.contains(value) && Int(exactly: value) != nil)
            case .number(let range):
                guard let value = Double(component) else { preconditionFailure("a number that does not read") }
                precondition(value.isFinite && range.contains(value), "a number out of range: \(component)")
            case .id:
                precondition((1...160).contains(component.utf8.count))
                precondition(!component.utf8.contains { $0 == UInt8(ascii: "/") || $0 < 0x21 || $0 > 0x7E })
            case .text:
                break
            }
        }
    }
}
