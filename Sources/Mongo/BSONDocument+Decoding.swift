import Foundation

extension BSONDocument {
    /// Decodes BSON bytes, checking every length against the buffer: bytes from the network are not
    /// trusted to be well formed.
    /// - Throws: `MongoError.other` for malformed BSON.
    public init(bsonBytes: UnsafeRawBufferPointer) throws {
        var reader = BSONReader(buffer: bsonBytes)
        self = try reader.readDocument()
        guard reader.offset == bsonBytes.count else { throw BSONReader.malformed("trailing bytes") }
    }

    /// Decodes BSON bytes.
    public init(bsonBytes: [UInt8]) throws {
        self = try bsonBytes.withUnsafeBytes { try BSONDocument(bsonBytes: $0) }
    }
}

/// Reads BSON from a borrowed buffer; strings and arrays are copied out, so the result owns its data.
struct BSONReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    static func malformed(_ why: String) -> MongoError {
        .other(code: -1, domain: nil, message: "malformed BSON: \(why)")
    }

    mutating func readDocument() throws -> BSONDocument {
        let end = try openDocument()
        var document = BSONDocument()
        while offset < end - 1 {
            let type = try readByte()
            let key = try readCString()
            document.append(key, try readValue(type: type))
        }
        try closeDocument(end)
        return document
    }

    private mutating func readArray() throws -> [BSONValue] {
        let end = try openDocument()
        var elements = [BSONValue]()
        while offset < end - 1 {
            let type = try readByte()
            try skipCString()  // array keys are "0", "1", …: position is all that matters
            elements.append(try readValue(type: type))
        }
        try closeDocument(end)
        return elements
    }

    /// Reads a document's length prefix and returns the offset just past its end.
    private mutating func openDocument() throws -> Int {
        let start = offset
        let length = Int(try readInt32())
        guard length >= 5, start + length <= buffer.count else { throw Self.malformed("bad document length") }
        return start + length
    }

    private mutating func closeDocument(_ end: Int) throws {
        guard offset == end - 1, try readByte() == 0 else { throw Self.malformed("document overruns its length") }
    }

    private mutating func readValue(type: UInt8) throws -> BSONValue {
        switch type {
        case 0x01: return .double(Double(bitPattern: try readUInt64()))
        case 0x02: return .string(try readString())
        case 0x03: return .document(try readDocument())
        case 0x04: return .array(try readArray())
        case 0x05:
            let length = Int(try readInt32())
            guard length >= 0 else { throw Self.malformed("negative binary length") }
            let subtype = try readByte()
            return .binary(subtype: subtype, Array(try take(length)))
        case 0x07: return .objectId(BSONObjectID(bytes: try take(12))!)
        case 0x08: return .bool(try readByte() != 0)
        case 0x09: return .date(BSONDate.date(milliseconds: Int64(bitPattern: try readUInt64())))
        case 0x0A: return .null
        case 0x10: return .int32(try readInt32())
        case 0x12: return .int64(Int64(bitPattern: try readUInt64()))
        default: return .raw(type: type, bytes: Array(try take(try rawPayloadLength(type: type))))
        }
    }

    /// The payload size of the types kept as `.raw`, read without moving `offset`.
    private func rawPayloadLength(type: UInt8) throws -> Int {
        var probe = self
        switch type {
        case 0x06, 0x7F, 0xFF: return 0  // undefined, max key, min key
        case 0x11: return 8  // timestamp
        case 0x13: return 16  // decimal128
        case 0x0B:  // regex: pattern and options as two C strings
            try probe.skipCString()
            try probe.skipCString()
        case 0x0C:  // DBPointer: string then ObjectId
            _ = try probe.readString()
            _ = try probe.take(12)
        case 0x0D, 0x0E:  // JavaScript code, symbol
            _ = try probe.readString()
        case 0x0F:  // code with scope: total length prefix
            let length = Int(try probe.readInt32())
            guard length >= 4 else { throw Self.malformed("bad code-with-scope length") }
            return length
        default: throw Self.malformed("unknown type 0x\(String(type, radix: 16))")
        }
        return probe.offset - offset
    }

    private mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer.SubSequence {
        guard count >= 0, offset + count <= buffer.count else { throw Self.malformed("value overruns buffer") }
        defer { offset += count }
        return buffer[offset..<offset + count]
    }

    private mutating func readByte() throws -> UInt8 {
        guard offset < buffer.count else { throw Self.malformed("unexpected end") }
        defer { offset += 1 }
        return buffer[offset]
    }

    private mutating func readInt32() throws -> Int32 {
        guard offset + 4 <= buffer.count else { throw Self.malformed("unexpected end") }
        defer { offset += 4 }
        return Int32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    private mutating func readUInt64() throws -> UInt64 {
        guard offset + 8 <= buffer.count else { throw Self.malformed("unexpected end") }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// A length-prefixed, NUL-terminated UTF-8 string; invalid UTF-8 is repaired with U+FFFD.
    private mutating func readString() throws -> String {
        let length = Int(try readInt32())
        guard length >= 1 else { throw Self.malformed("bad string length") }
        let bytes = try take(length)
        guard bytes.last == 0 else { throw Self.malformed("string not NUL-terminated") }
        return utf8String(bytes.dropLast())
    }

    private mutating func readCString() throws -> String {
        let start = offset
        try skipCString()
        return utf8String(buffer[start..<offset - 1])
    }

    /// Decodes through a typed buffer pointer: String's fast path for contiguous UTF-8.
    private func utf8String(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes).assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    private mutating func skipCString() throws {
        guard let nul = buffer[offset...].firstIndex(of: 0) else { throw Self.malformed("unterminated key") }
        offset = nul + 1
    }
}
