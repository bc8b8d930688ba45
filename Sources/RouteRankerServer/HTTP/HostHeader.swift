/// RFC 3986's `host [ ":" port ]` for a request's `Host` header, the one value a client sends
/// that the server writes into its answers (a device's ingest addresses, when no public URL is
/// configured). Only that shape is let through: `Host: a b` or `Host: x"><script>` is refused.
enum HostHeader {
    /// Whether `value` is a reg-name (unreserved characters, percent-encodings and sub-delims),
    /// an IPv4 address or a bracketed IPv6 address, optionally followed by `:` and a port of up
    /// to five digits.
    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 + 6 else { return false }
        var host = bytes[...]
        var port: ArraySlice<UInt8>?
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let inside = bytes[1..<close]
            guard !inside.isEmpty, inside.allSatisfy(isIPv6Byte) else { return false }
            let rest = bytes[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return false }
                port = rest.dropFirst()
            }
        } else {
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                host = bytes[..<colon]
                port = bytes[(colon + 1)...]
            }
            guard !host.isEmpty, host.allSatisfy(isRegNameByte), isPercentEncodingValid(host) else { return false }
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        }
        return true
    }

    /// unreserved / sub-delims / `%` (an IPv4 address is a reg-name too).
    private static func isRegNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }

    /// Hex digits, `:` and `.` (an embedded IPv4 address).
    private static func isIPv6Byte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Every `%` is followed by two hex digits.
    private static func isPercentEncodingValid(_ host: ArraySlice<UInt8>) -> Bool {
        var i = host.startIndex
        while i < host.endIndex {
            if host[i] == UInt8(ascii: "%") {
                guard i + 2 < host.endIndex, isHex(host[i + 1]), isHex(host[i + 2]) else { return false }
                i += 3
            } else {
                i += 1
            }
        }
        return true
    }

    private static func isHex(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
