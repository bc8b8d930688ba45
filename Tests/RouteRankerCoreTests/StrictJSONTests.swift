import Foundation
import Testing

@testable import RouteRankerCore

/// RFC 8259 JSON and nothing more; the inputs libFuzzer found are kept here (Fuzz/Corpus too).
@Suite struct StrictJSONTests {
    @Test(arguments: [
        "{}", "[]", "0", "-0.5e+10", #""a\u00e9\n""#, #"{"a":[1,{"b":null}],"c":true,"d":false}"#, " [ 1 , 2 ] ",
        "{\"name\":\"caf\u{e9}\"}", #""\ud83d\ude00""#, #"["\uD834\uDD1E x"]"#,
    ])
    func acceptsJSON(_ text: String) throws {
        try StrictJSON.validate(Array(text.utf8))
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
    }

    @Test(arguments: [
        "", "{\"a\":1,}", "[1,]", "[1 2]", "{'a':1}", "// c\n{}", "/* c */{}", "NaN", "[Infinity]", "[-Infinity]",
        "01", "[1.]", "[.5]", "[1e]", "{\"a\" 1}", "{\"a\":1} x", "{\"a\":1}{}", "\"a\u{1}b\"", "\"\\x\"",
        "\"\\u12\"", "[", "{\"a\":", "tru", "nul", "{1:2}",
    ])
    func refusesEverythingElse(_ text: String) {
        #expect(throws: FormatError.self, "\(text)") { try StrictJSON.validate(Array(text.utf8)) }
    }

    /// Found by fuzzing (json-body): a byte that is not UTF-8 inside a member name.
    @Test func refusesBytesThatAreNotUTF8() {
        let bytes = Array(#"{"name":"Morning run","poin"#.utf8) + [0xFF, 0xFF] + Array(#"":[]}"#.utf8)
        #expect(throws: FormatError.self) { try StrictJSON.validate(bytes) }
    }

    /// Found by fuzzing (json-body): lone surrogate escapes, which Foundation refuses.
    @Test(arguments: [
        #""\uDaaf""#, #""\uDC00""#, #""\uD800x""#, #""\uD800\n""#, #""\uD800\u0041""#, #""\ude00\ud83d""#,
    ])
    func refusesUnpairedSurrogates(_ text: String) {
        #expect(throws: FormatError.self, "\(text)") { try StrictJSON.validate(Array(text.utf8)) }
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) == nil)
    }

    @Test func nestingIsBoundedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: FormatError.self) { try StrictJSON.validate(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        try StrictJSON.validate(Array(fine.utf8))
    }
}
