/// A read-only view of BSON bytes that reads keys and small values and skips everything else by its
/// length, so that a command carrying 1000-point buckets costs no decoding of their arrays. Bytes it
/// cannot make sense of end the document early, never read past the buffer.
struct RawBSON {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    struct Element {
        let key: String
        let type: UInt8
        let value: UnsafeRawBufferPointer

        /// A string's value.
        var string: String? {
            guard type == 2, value.count >= 5 else { return nil }
            return String(decoding: value[4..<(value.count - 1)], as: UTF8.self)
        }

        /// An embedded document's or array's bytes.
        var document: RawBSON? {
            guard type == 3 || type == 4 else { return nil }
            return RawBSON(value)
        }

        var bool: Bool? { type == 8 && value.count == 1 ? value[0] != 0 : nil }

        /// An int32's, int64's or double's value.
        var int: Int? {
            switch type {
            case 16 where value.count == 4: Int(Int32(littleEndian: value.loadUnaligned(as: Int32.self)))
            case 18 where value.count == 8: Int(Int64(littleEndian: value.loadUnaligned(as: Int64.self)))
            case 1 where value.count == 8:
                Int(exactly: Double(bitPattern: UInt64(littleEndian: value.loadUnaligned(as: UInt64.self))))
            default: nil
            }
        }
    }

    subscript(key: String) -> Element? { elements.first { $0.key == key } }

    /// The document's elements in order.
    var elements: [Element] {
        var found: [Element] = []
        guard bytes.count >= 5 else { return found }
        let end = min(bytes.count, Int(Int32(littleEndian: bytes.loadUnaligned(as: Int32.self)))) - 1
        var offset = 4
        while offset < end {
            let type = bytes[offset]
            offset += 1
            guard let nul = bytes[offset..<end].firstIndex(of: 0) else { break }
            let key = String(decoding: bytes[offset..<nul], as: UTF8.self)
            offset = nul + 1
            guard let size = Self.size(type: type, at: offset, in: bytes, end: end), offset + size <= end else { break }
            found.append(
                Element(key: key, type: type, value: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])))
            offset += size
        }
        return found
    }

    /// The length of a value of `type` starting at `offset`, or nil if it cannot be told.
    private static func size(type: UInt8, at offset: Int, in bytes: UnsafeRawBufferPointer, end: Int) -> Int? {
        func int32() -> Int? {
            guard offset + 4 <= end else { return nil }
            return Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
        }
        func cstrings(_ count: Int) -> Int? {
            var position = offset
            for _ in 0..<count {
                guard let nul = bytes[position..<end].firstIndex(of: 0) else { return nil }
                position = nul + 1
            }
            return position - offset
        }
        switch type {
        case 1, 9, 17, 18: return 8  // double, date, timestamp, int64
        case 2, 13, 14: return int32().flatMap { $0 >= 1 ? $0 + 4 : nil }  // string, code, symbol
        case 3, 4, 15: return int32().flatMap { $0 >= 5 ? $0 : nil }  // document, array, code with scope
        case 5: return int32().flatMap { $0 >= 0 ? $0 + 5 : nil }  // binary: length, subtype, bytes
        case 6, 10, 127, 255: return 0  // undefined, null, max key, min key
        case 7: return 12  // ObjectId
        case 8: return 1  // bool
        case 11: return cstrings(2)  // regex: pattern, options
        case 12: return int32().flatMap { $0 >= 1 ? $0 + 4 + 12 : nil }  // DBPointer
        case 16: return 4  // int32
        case 19: return 16  // decimal128
        default: return nil
        }
    }
}
