import Foundation

/// The opaque cursor's content.
package struct Cursor: Codable, Equatable {
    package var list: String
    package var key: [String]

    package init(list: String, key: [String]) {
        self.list = list
        self.key = key
    }

    package init?(encoded: String) {
        guard encoded.utf8.count <= 2048, let data = Base64URL.decode(encoded),
            let cursor = try? JSONDecoder().decode(Cursor.self, from: data)
        else { return nil }
        self = cursor
    }

    /// Base64url of `{"key":[…],"list":"…"}`, written directly: a page with a next page makes one
    /// of these, and `JSONEncoder` cost 2 % of an inbox page.
    package var encoded: String {
        var writer = JSONWriter(capacity: 128)
        writer.raw("{")
        writer.key("key")
        writer.array(key) { $0.string($1) }
        writer.comma()
        writer.key("list")
        writer.string(list)
        writer.raw("}")
        return Base64URL.encode(writer.bytes)
    }
}

/// Code-point order for strings (UTF-8 byte order is code-point order), which the contract uses
/// for names; Swift's `<` on `String` compares Unicode-canonically instead.
package enum CodePoint {
    package static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    package static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return precedes(x, y) }
        return a.count < b.count
    }
}
