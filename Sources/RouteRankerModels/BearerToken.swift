/// The `Authorization` header's bearer token.
package enum BearerToken {
    /// The most bytes a token may have; ours have at most 108 (`UserToken`: a 64-byte id, `~`, 43).
    package static let maxBytes = 256

    /// The token of a `Bearer` authorization (RFC 6750: the scheme matched case-insensitively,
    /// then blanks, then a token68, then optional blanks), or nil when the header is absent, of
    /// another scheme, malformed or its token is longer than `maxBytes`. Read as bytes, not as
    /// Swift characters: a combining mark must not merge with the blank before it (found by
    /// fuzzing: `Bearer \t\u{320}x`).
    package static func parse(_ header: String?) -> String? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ lowercased($0) == $1 }),
            isBlank(bytes[scheme.count])
        else { return nil }
        let token = bytes[scheme.count...].drop(while: isBlank).reversed().drop(while: isBlank).reversed()
        guard !token.isEmpty, token.count <= maxBytes, isToken68(Array(token)) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    private static func isToken68(_ token: [UInt8]) -> Bool {
        let body = token.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, token[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~+/".utf8.contains(byte)
        }
    }
}
