/// Doubles stored packed in one BSON binary field, 8 bytes each (IEEE 754, little-endian), bit for
/// bit. Used where values are read whole and never queried inside (resampled paths, the open tail
/// of a route): one binary field costs the database far less to encode than thousands of array
/// elements (measured: SecantusDB spent most of a `similar` query on them).
enum PackedDoubles {
    static func bytes(_ values: some Collection<Double>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 8)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }

    /// The doubles in `bytes`, or `nil` when its length is not a multiple of 8.
    static func doubles(_ bytes: [UInt8]) -> [Double]? {
        guard bytes.count % 8 == 0 else { return nil }
        return stride(from: 0, to: bytes.count, by: 8).map { offset in
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[offset + k]) << (8 * k) }
            return Double(bitPattern: bits)
        }
    }
}
