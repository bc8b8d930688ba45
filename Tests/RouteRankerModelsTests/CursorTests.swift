import Foundation
import RouteRankerModels
import Testing

/// The opaque cursor: written by `JSONWriter`, read by `JSONDecoder`.
@Suite struct CursorTests {
    static let awkward = [
        "", "plain", "with \"quotes\" and \\ backslashes", "a/b", "tab\tnew\nline\r\u{8}\u{c}", "\u{1}\u{1f}\u{7f}",
        "ália Ω 🏃", "1764000000123", "6b0837b5e72a487b210220f1:friend",
    ]

    @Test func everyListAndKeyRoundTrips() throws {
        for list in Self.awkward {
            for key in [[], Self.awkward, ["1764000000123", list]] {
                let cursor = Cursor(list: list, key: key)
                #expect(Cursor(encoded: cursor.encoded) == cursor, "\(list) \(key)")
            }
        }
    }

    /// What is written is JSON any decoder reads to the same cursor, not only ours.
    @Test func theTextIsJSONForAnyDecoder() throws {
        for text in Self.awkward {
            let cursor = Cursor(list: "inbox", key: [text])
            let data = try #require(Base64URL.decode(cursor.encoded))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["list"] as? String == "inbox")
            #expect(object["key"] as? [String] == [text])
            #expect(object.count == 2)
        }
    }

    /// Cursors handed out before they were written directly (by `JSONEncoder`, which escapes `/`)
    /// still lead to the same page.
    @Test func cursorsFromJSONEncoderStillRead() throws {
        for text in Self.awkward {
            let cursor = Cursor(list: "routes:-started_at", key: [text, "a/b"])
            let old = Base64URL.encode(try JSONEncoder().encode(cursor))
            #expect(Cursor(encoded: old) == cursor)
        }
    }
}
