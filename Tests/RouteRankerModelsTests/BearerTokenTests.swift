import RouteRankerModels
import Testing

/// `Authorization: Bearer` as RFC 6750 writes it; anything else is no token (`401`).
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer abc-DEF_123", "abc-DEF_123"),
        ("bearer abc", "abc"),
        ("BEARER \t abc== ", "abc=="),
        ("Bearer a.b~c+d/e", "a.b~c+d/e"),
    ])
    func wellFormedHeadersGiveTheToken(_ header: String, _ token: String) {
        #expect(BearerToken.parse(header) == token)
    }

    @Test(arguments: [
        "", "Bearer", "Bearer ", "Bearerabc", "Basic dXNlcjpwYXNz", "Bearer a b", "Bearer =abc", "Bearer ab=c",
        "Bearer \u{E9}t\u{E9}",
        // Found by fuzzing: read as Swift characters, the blank and the mark were one character.
        "Bearer \t\u{320}x",
    ])
    func malformedHeadersGiveNoToken(_ header: String) {
        #expect(BearerToken.parse(header) == nil)
    }

    @Test func tokensLongerThanTheLimitAreRefused() {
        #expect(BearerToken.parse("Bearer " + String(repeating: "a", count: BearerToken.maxBytes)) != nil)
        #expect(BearerToken.parse("Bearer " + String(repeating: "a", count: BearerToken.maxBytes + 1)) == nil)
        #expect(BearerToken.parse(nil) == nil)
    }
}
