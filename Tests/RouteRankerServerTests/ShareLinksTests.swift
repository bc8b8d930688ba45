import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Share links for people without an account (API.md "Share links").
@Suite struct ShareLinksTests {
    static let day = 24 * 3600.0

    @Test func createShowsALongSecretOnceWithASevenDayDefault() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let route = try await client.newSharedRoute(olga)
            let response = try await client.send(.post, "/v1/routes/\(route)/links", token: olga, json: "{}")
            #expect(response.status == .created)
            #expect(Set(response.json.keys) == ["id", "url", "page_url", "expires_at"])
            let url = try #require(response.json["url"] as? String)
            let secret = try #require(url.wholeMatch(of: /\/v1\/links\/([A-Za-z0-9_-]+)/)?.1)
            #expect(secret.count >= 22)  // ≥ 128 bits in base64url
            let expiresAt = try #require(SharingFixture.date(response.json["expires_at"]))
            #expect(abs(expiresAt.timeIntervalSinceNow - 7 * Self.day) < 60)
            #expect((response.json["expires_at"] as? String)?.hasSuffix("Z") == true)

            // Every link has its own secret.
            let bare = try await client.send(.post, "/v1/routes/\(route)/links", token: olga, json: "{}")
            #expect(bare.status == .created)
            let other = try #require(bare.json["url"] as? String)
            #expect(other != url)
            #expect(bare.json["id"] as? String != response.json["id"] as? String)
            #expect(try await client.send(.get, url).status == .ok)
            #expect(try await client.send(.get, other).status == .ok)
        }
    }

    @Test func aLinkServesTheSummaryAndEveryFormatWithoutAToken() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran"])
            _ = try await client.register("fran")
            let route = try await client.newSharedRoute(olga)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let link = try await client.newLink(olga, route)
            let owners = try await client.send(.get, "/v1/routes/\(route)", token: olga)

            let summary = try await client.send(.get, "/v1/links/\(link.secret)")
            #expect(summary.status == .ok)
            #expect(summary.json["id"] as? String == route)
            #expect(summary.json["owner"] as? String == "olga")
            #expect(summary.json["shared_with"] == nil)  // the owner's business only
            #expect(summary.json["stats"] as? NSDictionary == owners.json["stats"] as? NSDictionary)
            let line = SharingFixture.line()
            for format in SharingFixture.formats {
                let points = try await client.send(.get, "/v1/links/\(link.secret)/points?format=\(format)")
                #expect(points.status == .ok, "\(format)")
                #expect(points.headers[.eTag] != nil)
                let coordinates = try SharingFixture.coordinates(points.text, format: format)
                #expect(coordinates.count == line.count, "\(format)")
                #expect(zip(coordinates, line).allSatisfy { SharingFixture.same($0, $1.coordinate) }, "\(format)")
            }
            let unknownFormat = try await client.send(.get, "/v1/links/\(link.secret)/points?format=kml")
            #expect(unknownFormat.status == .badRequest)
        }
    }

    @Test func expiresInMustBeMoreThanZeroAndAtMostNinetyDays() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let route = try await client.newSharedRoute(olga)
            for value in ["0", "-1", "7776001", #""x""#, "true", "[]", #"{"$gt":0}"#] {
                let response = try await client.send(
                    .post, "/v1/routes/\(route)/links", token: olga, json: #"{"expires_in_s":\#(value)}"#)
                #expect(response.status == .badRequest, "\(value)")
                #expect(response.errorCode == "invalid_request", "\(value)")
            }
            let listed = try await client.send(.get, "/v1/routes/\(route)/links", token: olga)
            #expect(listed.json["total"] as? Int == 0)

            let longest = try await client.send(
                .post, "/v1/routes/\(route)/links", token: olga, json: #"{"expires_in_s":7776000}"#)
            #expect(longest.status == .created)
            let expiresAt = try #require(SharingFixture.date(longest.json["expires_at"]))
            #expect(abs(expiresAt.timeIntervalSinceNow - 90 * Self.day) < 60)
            let short = try await client.send(
                .post, "/v1/routes/\(route)/links", token: olga, json: #"{"expires_in_s":60}"#)
            let shortExpiry = try #require(SharingFixture.date(short.json["expires_at"]))
            #expect(abs(shortExpiry.timeIntervalSinceNow - 60) < 30)
        }
    }

    @Test func theListIsNewestFirstAndNeverShowsASecret() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let route = try await client.newSharedRoute(olga)
            var links: [(id: String, secret: String)] = []
            for _ in 0..<3 {
                links.append(try await client.newLink(olga, route))
            }
            let listed = try await client.send(.get, "/v1/routes/\(route)/links", token: olga)
            #expect(listed.status == .ok)
            #expect(Set(listed.json.keys) == ["items", "next", "total"])
            #expect(listed.json["total"] as? Int == 3)
            #expect(SharingFixture.ids(listed) == links.reversed().map(\.id))
            for item in SharingFixture.items(listed) {
                #expect(Set(item.keys) == ["id", "created_at", "expires_at"])
                let created = try #require(SharingFixture.date(item["created_at"]))
                let expires = try #require(SharingFixture.date(item["expires_at"]))
                #expect(abs(expires.timeIntervalSince(created) - 7 * Self.day) < 1)
            }
            for link in links { #expect(!listed.text.contains(link.secret)) }

            let page = try await client.send(.get, "/v1/routes/\(route)/links?limit=2", token: olga)
            #expect(SharingFixture.ids(page) == [links[2].id, links[1].id])
            let cursor = try #require(page.json["next"] as? String)
            let rest = try await client.send(.get, "/v1/routes/\(route)/links?limit=2&cursor=\(cursor)", token: olga)
            #expect(SharingFixture.ids(rest) == [links[0].id])

            let revoke = "/v1/routes/\(route)/links/\(links[1].id)"
            #expect(try await client.send(.delete, revoke, token: olga).status == .noContent)
            #expect(try await client.send(.get, "/v1/links/\(links[1].secret)").status == .notFound)
            #expect(try await client.send(.get, "/v1/links/\(links[1].secret)/points").status == .notFound)
            #expect(try await client.send(.get, "/v1/links/\(links[0].secret)").status == .ok)
            let again = try await client.send(.delete, revoke, token: olga)
            #expect(again.status == .notFound)
            let after = try await client.send(.get, "/v1/routes/\(route)/links", token: olga)
            #expect(SharingFixture.ids(after) == [links[2].id, links[0].id])
        }
    }

    @Test func aLinkIdOfAnotherRouteCannotBeRevokedThroughMine() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let sam = try await client.register("sam")
            let hers = try await client.newSharedRoute(olga)
            let his = try await client.newSharedRoute(sam)
            let herLink = try await client.newLink(olga, hers)
            let revoke = try await client.send(.delete, "/v1/routes/\(his)/links/\(herLink.id)", token: sam)
            #expect(revoke.status == .notFound)
            #expect(try await client.send(.get, "/v1/links/\(herLink.secret)").status == .ok)
        }
    }
}
