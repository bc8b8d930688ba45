import Foundation

/// base64url without padding (RFC 4648 §5): tokens, link secrets and list cursors.
package enum Base64URL {
    @inlinable
    package static func encode(_ data: some Sequence<UInt8>) -> String {
        // One pass over base64's bytes (three `replacingOccurrences` were 3 % of an inbox page,
        // which encodes its next-page cursor).
        var bytes: [UInt8] = []
        for byte in Data(data).base64EncodedString().utf8 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `text`, or `nil` if it is not base64url (padding optional).
    package static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Lower-case hexadecimal, e.g. of a digest.
package enum Hex {
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
