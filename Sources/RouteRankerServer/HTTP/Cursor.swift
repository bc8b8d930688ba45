import Foundation

// Foundation only (no Hummingbird): Fuzz/Sources/FuzzTargets/Server links here, to fuzz it.

/// The opaque cursor's content.
struct Cursor: Codable, Equatable {
    var list: String
    var key: [String]

    init(list: String, key: [String]) {
        self.list = list
        self.key = key
    }

    init?(encoded: String) {
        guard encoded.utf8.count <= 2048, let data = Base64URL.decode(encoded),
            let cursor = try? JSONDecoder().decode(Cursor.self, from: data)
        else { return nil }
        self = cursor
    }

    var encoded: String {
        // Two strings and an array of strings always encode.
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return Base64URL.encode(data)
    }
}

/// Code-point order for strings (UTF-8 byte order is code-point order), which the contract uses
/// for names; Swift's `<` on `String` compares Unicode-canonically instead.
enum CodePoint {
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return precedes(x, y) }
        return a.count < b.count
    }
}
