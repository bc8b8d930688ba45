/// A field of a FIT definition message, placed within its data message.
struct FITFieldSlot: Sendable {
    /// The field definition number (`253` timestamp, `0` position_lat, …).
    var number: UInt8
    /// Where the field starts, counted from the first byte after the record header.
    var offset: Int
    /// Its declared size in bytes (may differ from the profile's).
    var size: Int
    /// Its declared base type byte.
    var baseType: UInt8
}

/// A definition message: what every data message of one local type holds.
struct FITDefinition: Sendable {
    /// The global message number (`0` file_id, `18` session, `20` record, …).
    var global: UInt16
    /// True when multi-byte values are big-endian (architecture 1).
    var bigEndian: Bool
    /// Only the fields this reader decodes; everything else is read past by `size`.
    var slots: [FITFieldSlot]
    /// The data message's size after its header: every field, developer fields included.
    var size: Int

    /// The slot of field `number`, if the definition has it.
    func slot(_ number: UInt8) -> FITFieldSlot? {
        slots.first { $0.number == number }
    }
}

/// Reads integer values by their declared FIT base type, giving nil for the type's invalid value.
enum FITValue {
    /// The first element of an integer field, or nil when the base type is not an integer, the
    /// field is smaller than one element, or the value is the base type's "invalid" marker.
    static func integer(
        _ bytes: UnsafeRawBufferPointer, at start: Int, slot: FITFieldSlot, bigEndian: Bool
    ) -> Int64? {
        // The low five bits number the base type; writers do not always set the endian flag.
        let kind = slot.baseType & 0x1F
        let width: Int
        var signed = false
        var zeroInvalid = false
        switch kind {
        case 0x00, 0x02, 0x0D: width = 1
        case 0x01: (width, signed) = (1, true)
        case 0x0A: (width, zeroInvalid) = (1, true)
        case 0x03: (width, signed) = (2, true)
        case 0x04: width = 2
        case 0x0B: (width, zeroInvalid) = (2, true)
        case 0x05: (width, signed) = (4, true)
        case 0x06: width = 4
        case 0x0C: (width, zeroInvalid) = (4, true)
        case 0x0E: (width, signed) = (8, true)
        case 0x0F: width = 8
        case 0x10: (width, zeroInvalid) = (8, true)
        default: return nil
        }
        guard slot.size >= width else { return nil }
        var raw: UInt64 = 0
        for i in 0..<width {
            let b = UInt64(bytes[start + slot.offset + (bigEndian ? i : width - 1 - i)])
            raw = raw << 8 | b
        }
        if zeroInvalid { return raw == 0 ? nil : Int64(bitPattern: raw) }
        let bits = UInt64(width * 8)
        let invalid: UInt64 = signed ? (1 << (bits - 1)) - 1 : (bits == 64 ? .max : (1 << bits) - 1)
        guard raw != invalid else { return nil }
        guard signed else { return width == 8 && raw > UInt64(Int64.max) ? nil : Int64(raw) }
        // Sign-extend from the field's width.
        let shift = 64 - bits
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }
}
