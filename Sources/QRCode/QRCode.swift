import CQREncode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// QR Codes (ISO/IEC 18004), encoded by libqrencode: the symbol's modules, for a drawing to
/// show. Generic: knows nothing about devices or apps.
public enum QRCode {
    /// How much of the symbol may be damaged and still read: about 7 %, 15 %, 25 % and 30 %.
    public enum ErrorCorrection: Sendable, CaseIterable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The modules of the smallest symbol that holds `text` (as UTF-8, case kept; the library
    /// chooses numeric, alphanumeric and 8-bit segments), row by row from the top: `true` is dark.
    /// The quiet zone around the symbol is not included. The symbol is square, 21 + 4 × (version
    /// − 1) modules a side.
    public static func modules(for text: String, level: ErrorCorrection = .medium) throws(QRCodeError) -> [[Bool]] {
        // The encoder reads a C string: a NUL would end the text early.
        guard !text.utf8.contains(0) else { throw .invalidText }
        errno = 0
        guard let code = QRcode_encodeString(text, 0, level.level, QR_MODE_8, 1) else {
            switch errno {
            case ERANGE: throw .tooLong
            case ENOMEM: throw .outOfMemory
            default: throw .invalidText
            }
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour; the other bits say what the module is part of.
        return (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }
}

/// Why a text could not be encoded.
public enum QRCodeError: Error, Equatable, Sendable {
    /// More than the largest symbol (version 40) holds at the level asked for.
    case tooLong
    /// The text contains a NUL character.
    case invalidText
    case outOfMemory
}
