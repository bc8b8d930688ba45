import CLibMongoC

/// A 12-byte BSON ObjectId.
///
/// New ids come from libbson's generator (timestamp, per-process random value, counter), so ids made
/// here sort the same way as ids made by the server or any other driver.
public struct BSONObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The 12 raw bytes, as stored in BSON.
    public let bytes: [UInt8]

    /// A fresh, unique ObjectId.
    public init() {
        MongoRuntime.initializeOnce()
        var oid = bson_oid_t()
        bson_oid_init(&oid, nil)
        self.bytes = withUnsafeBytes(of: oid.bytes) { Array($0) }
    }

    /// An ObjectId from its 12 raw bytes; `nil` if `bytes` is not 12 bytes long.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Parses the usual 24-character hexadecimal form (either case); `nil` for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 24 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        for i in stride(from: 0, to: 24, by: 2) {
            guard let high = Self.nibble(utf8[i]), let low = Self.nibble(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// The 24-character lowercase hexadecimal form.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(24)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
