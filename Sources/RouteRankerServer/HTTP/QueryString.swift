import Hummingbird

/// A request's query string, decoded as `application/x-www-form-urlencoded` — the way browsers,
/// HTML forms and most HTTP libraries encode it: `+` is a space and `%XX` a byte
/// (`?name=Morning+run` is "Morning run"). A `%` not followed by two hex digits stands for itself.
struct QueryString: Sendable {
    private var pairs: [(name: String, value: String)] = []

    init(_ raw: String?) {
        guard let raw, !raw.isEmpty else { return }
        for part in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value) =
                part.firstIndex(of: "=").map { (part[..<$0], part[part.index(after: $0)...]) } ?? (part, "")
            pairs.append((Self.decode(name), Self.decode(value)))
        }
    }

    /// The first value given for `name`, if any.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = text.utf8[...]
        while let byte = input.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let digits = Array(input.prefix(2))
                if digits.count == 2, let high = hexValue(digits[0]), let low = hexValue(digits[1]) {
                    bytes.append(high << 4 | low)
                    input = input.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Request {
    /// The query string, form-decoded (see `QueryString`).
    var query: QueryString { QueryString(uri.query) }
}
