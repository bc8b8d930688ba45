/// The FIT checksum: CRC-16 with the reflected polynomial 0xA001 and initial value 0 (FIT
/// protocol, "CRC"), computed over the file header and the data records.
enum FITCRC {
    private static let table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    /// The checksum of `bytes`, continuing from `crc`.
    static func update(_ crc: UInt16, _ bytes: UnsafeRawBufferPointer) -> UInt16 {
        var crc = crc
        for b in bytes { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ b)] }
        return crc
    }
}
