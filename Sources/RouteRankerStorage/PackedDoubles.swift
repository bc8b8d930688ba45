/// Doubles stored packed in one BSON binary field, 8 bytes each (IEEE 754, little-endian), bit for
/// bit. Used where values are read whole and never queried inside (resampled paths, the open tail
/// of a route): one binary field costs the database far less to encode than thousands of array
/// elements (measured: SecantusDB spent most of a `similar` query on them).
package enum PackedDoubles {
    /// Every commit of a route writes its open tail (up to 999 points, five lists), so this stores
    /// whole words rather than appending byte by byte (2.5 % of a live append in the profile).
    ///
    /// Inlinable, like `doubles`: a generic call is specialized only where the body is visible, and
    /// the unspecialized loop, with a runtime metadata lookup per element, cost a live append 20 %
    /// (measured while this lived in another module than its callers; kept so for any new caller
    /// outside Storage, such as its tests).
    @inlinable
    package static func bytes(_ values: some Collection<Double>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: values.count * 8) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for (index, value) in values.enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
            initialized = values.count * 8
        }
    }

    /// The doubles in `bytes`, or `nil` when its length is not a multiple of 8. Every read of a
    /// route decodes its open tail (up to 999 points, five lists), so this loads whole words rather
    /// than assembling each from bytes (it was 3 % of a friend's route read in the profile).
    @inlinable
    package static func doubles(_ bytes: [UInt8]) -> [Double]? {
        guard bytes.count % 8 == 0 else { return nil }
        let count = bytes.count / 8
        return bytes.withUnsafeBytes { raw in
            [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    let bits = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                    buffer[index] = Double(bitPattern: UInt64(littleEndian: bits))
                }
                initialized = count
            }
        }
    }
}
