import Foundation

// BSON is encoded in Swift straight into one byte buffer, rather than through one libbson append call
// per value: a document of parallel arrays has thousands of values, and a C call per value (with its key string
// converted each time) would cost more than the bytes themselves. libbson only ever sees finished bytes.

extension BSONDocument {
    /// The document as BSON bytes.
    /// - Throws: `MongoError.other` for a key containing NUL or a document over 2 GiB (not encodable).
    public func bsonBytes() throws -> [UInt8] {
        var writer = BSONWriter()
        try writer.writeDocument(self)
        return writer.bytes
    }
}

/// Appends BSON to a growing buffer; lengths are back-patched when a document closes.
struct BSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func writeDocument(_ document: BSONDocument) throws {
        let start = openDocument()
        for i in 0..<document.keys.count {
            try writeElement(key: document.keys[i], document.values[i])
        }
        try closeDocument(start)
    }

    private mutating func writeArray(_ elements: [BSONValue]) throws {
        let start = openDocument()
        for (i, element) in elements.enumerated() {
            try writeElement(index: i, element)
        }
        try closeDocument(start)
    }

    private mutating func openDocument() -> Int {
        let start = bytes.count
        appendInt32(0)  // length, patched by closeDocument
        return start
    }

    private mutating func closeDocument(_ start: Int) throws {
        bytes.append(0)
        guard let length = Int32(exactly: bytes.count - start) else {
            throw MongoError.other(code: -1, domain: nil, message: "BSON document too large to encode")
        }
        withUnsafeBytes(of: length.littleEndian) { raw in
            for j in 0..<4 { bytes[start + j] = raw[j] }
        }
    }

    private mutating func writeElement(key: String, _ value: BSONValue) throws {
        bytes.append(Self.typeByte(value))
        var key = key
        try key.withUTF8 { utf8 in
            // A NUL would end the key early and corrupt the document, so refuse it.
            guard !utf8.contains(0) else {
                throw MongoError.other(code: -1, domain: nil, message: "BSON keys cannot contain NUL")
            }
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
        try writePayload(value)
    }

    /// Array keys are the decimal indexes "0", "1", …, written digit by digit without making Strings.
    private mutating func writeElement(index: Int, _ value: BSONValue) throws {
        bytes.append(Self.typeByte(value))
        var divisor = 1
        while divisor <= index / 10 { divisor *= 10 }
        var rest = index
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        bytes.append(0)
        try writePayload(value)
    }

    private mutating func writePayload(_ value: BSONValue) throws {
        switch value {
        case .double(let v): appendUInt64(v.bitPattern)
        case .string(let s): try appendString(s)
        case .document(let d): try writeDocument(d)
        case .array(let a): try writeArray(a)
        case .binary(let subtype, let data):
            guard let length = Int32(exactly: data.count) else {
                throw MongoError.other(code: -1, domain: nil, message: "BSON binary too large to encode")
            }
            appendInt32(length)
            bytes.append(subtype)
            bytes.append(contentsOf: data)
        case .objectId(let oid): bytes.append(contentsOf: oid.bytes)
        case .bool(let b): bytes.append(b ? 1 : 0)
        case .date(let d): appendUInt64(UInt64(bitPattern: BSONDate.milliseconds(d)))
        case .null: break
        case .int32(let v): appendInt32(v)
        case .int64(let v): appendUInt64(UInt64(bitPattern: v))
        case .raw(_, let payload): bytes.append(contentsOf: payload)
        }
    }

    private mutating func appendString(_ s: String) throws {
        var s = s
        try s.withUTF8 { utf8 in
            guard let length = Int32(exactly: utf8.count + 1) else {
                throw MongoError.other(code: -1, domain: nil, message: "BSON string too large to encode")
            }
            appendInt32(length)
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    private mutating func appendInt32(_ v: Int32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendUInt64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func typeByte(_ value: BSONValue) -> UInt8 {
        switch value {
        case .double: 0x01
        case .string: 0x02
        case .document: 0x03
        case .array: 0x04
        case .binary: 0x05
        case .objectId: 0x07
        case .bool: 0x08
        case .date: 0x09
        case .null: 0x0A
        case .int32: 0x10
        case .int64: 0x12
        case .raw(let type, _): type
        }
    }
}

/// BSON datetimes are int64 milliseconds since the Unix epoch.
enum BSONDate {
    /// Rounds to the nearest millisecond, so a date read from BSON converts back to the same integer
    /// even when the Double arithmetic lands a hair below it; clamps dates beyond ±292 million years.
    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        if ms.isNaN { return 0 }
        if ms >= 9.2e18 { return Int64.max }
        if ms <= -9.2e18 { return Int64.min }
        return Int64(ms)
    }

    static func date(milliseconds ms: Int64) -> Date {
        Date(timeIntervalSince1970: Double(ms) / 1000)
    }
}
