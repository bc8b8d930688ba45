import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SVG endpoints (API.md "Pictures and pages"): the same access as the JSON, privacy zones in
/// every picture, `ETag`s as for downloads.
@Suite struct PicturesTests {
    /// The map's line, parsed, and the line the visible points should give.
    static func line(_ response: TestResponse, expected points: [TrackPoint], width: Double = 640) throws -> (
        drawn: [(x: Double, y: Double)], expected: [(x: Double, y: Double)]
    ) {
        let parsed = try ParsedSVG(response.text)
        let line = try #require(parsed.elements("polyline", class: "route").first)
        let fit = RouteMapPicture.fit(points, width: width)
        return (ParsedSVG.points(line), points.map { fit.pixel(WebMercator.project(lat: $0.lat, lon: $0.lon)) })
    }

    static func same(_ a: [(x: Double, y: Double)], _ b: [(x: Double, y: Double)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0.x - $1.x) <= 0.051 && abs($0.y - $1.y) <= 0.051 }
    }

    @Test func theOwnerSeesEveryPointAndOthersOnlyThoseOutsideTheZones() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let all = PrivacyZonesTests.line
            let visible = Array(all[4...27])

            let owners = try await client.send(.get, "/v1/routes/\(scene.route)/map.svg", token: scene.olga)
            #expect(owners.status == .ok)
            #expect(owners.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(owners.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let own = try Self.line(owners, expected: all)
            #expect(Self.same(own.drawn, own.expected))

            let friends = try await client.send(.get, "/v1/routes/\(scene.route)/map.svg", token: scene.fran)
            let linked = try await client.send(.get, "/v1/links/\(scene.secret)/map.svg")
            for response in [friends, linked] {
                #expect(response.status == .ok)
                let line = try Self.line(response, expected: visible)
                #expect(Self.same(line.drawn, line.expected))
                // No hidden point is anywhere in the picture (the line is exactly the visible ones,
                // and none of the hidden ones falls on it).
                let hidden = Array(all[0...3]) + Array(all[28...29])
                for fit in [RouteMapPicture.fit(visible, width: 640)] {
                    for point in hidden {
                        let p = fit.pixel(WebMercator.project(lat: point.lat, lon: point.lon))
                        let needle = "\(SVGNumber.format(p.x)),\(SVGNumber.format(p.y))"
                        #expect(
                            !line.drawn.contains { "\(SVGNumber.format($0.x)),\(SVGNumber.format($0.y))" == needle })
                    }
                }
                #expect(!response.text.contains("Home gate"))
            }
            // The profile leaves the hidden points out too: one value per visible point with an elevation.
            let profile = try await client.send(.get, "/v1/routes/\(scene.route)/profile.svg", token: scene.fran)
            #expect(profile.status == .ok)
            let series = try #require(try ParsedSVG(profile.text).elements("polyline", class: "series").first)
            #expect(ParsedSVG.points(series).count == visible.count)
            let ownProfile = try await client.send(.get, "/v1/routes/\(scene.route)/profile.svg", token: scene.olga)
            let ownSeries = try #require(try ParsedSVG(ownProfile.text).elements("polyline", class: "series").first)
            #expect(ParsedSVG.points(ownSeries).count == all.count)
        }
    }

    @Test func refusalsAreTheSame404AsTheJSON() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let stranger = try await client.register("sam")
            let json = try await client.send(.get, "/v1/routes/\(scene.route)", token: stranger)
            #expect(json.status == .notFound)
            for path in ["map.svg", "profile.svg", "profile.svg?y=pace&x=time"] {
                let unshared = try await client.send(.get, "/v1/routes/\(scene.route)/\(path)", token: stranger)
                #expect(unshared.status == .notFound, "\(path)")
                #expect(unshared.text == json.text, "\(path)")
                let absent = try await client.send(
                    .get, "/v1/routes/\(SharingFixture.madeUpRoute)/\(path)", token: stranger)
                #expect(absent.text == json.text, "\(path)")
                let anonymous = try await client.send(.get, "/v1/routes/\(scene.route)/\(path)")
                #expect(anonymous.status == .unauthorized, "\(path)")
            }
            let jsonLink = try await client.send(.get, "/v1/links/\(SharingFixture.madeUpSecret)")
            let deadLink = try await client.send(.get, "/v1/links/\(SharingFixture.madeUpSecret)/map.svg")
            #expect(deadLink.status == .notFound)
            #expect(deadLink.text == jsonLink.text)
            // Revoked: gone at once.
            let revoked = try await client.send(
                .delete, "/v1/routes/\(scene.route)/links/\(try linkID(client, scene))", token: scene.olga)
            #expect(revoked.status == .noContent)
            #expect(try await client.send(.get, "/v1/links/\(scene.secret)/map.svg").status == .notFound)
        }
    }

    func linkID(_ client: some TestClientProtocol, _ scene: PrivacyZonesTests.Scene) async throws -> String {
        let list = try await client.send(.get, "/v1/routes/\(scene.route)/links", token: scene.olga)
        return try #require(SharingFixture.items(list).first?["id"] as? String)
    }

    @Test func etagsChangeWithTheRouteAndTheZonesAndGive304() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let path = "/v1/routes/\(scene.route)/map.svg"
            let first = try await client.send(.get, path, token: scene.fran)
            let tag = try #require(first.headers[.eTag])
            let again = try await client.send(.get, path, token: scene.fran, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.headers[.eTag] == tag)
            #expect(try await client.send(.get, path + "?width=300", token: scene.fran).headers[.eTag] != tag)
            #expect(try await client.putZones(scene.olga, "[]").status == .ok)
            let after = try await client.send(.get, path, token: scene.fran, headers: [.ifNoneMatch: tag])
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != tag)
        }
    }

    @Test func badParametersAre400() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client, zones: false)
            for query in ["width=99", "width=2001", "width=abc", "width=640.5"] {
                let response = try await client.send(
                    .get, "/v1/routes/\(scene.route)/map.svg?\(query)", token: scene.olga)
                #expect(response.status == .badRequest, "\(query)")
            }
            for query in ["y=height", "x=space", "y=ELEVATION"] {
                let response = try await client.send(
                    .get, "/v1/routes/\(scene.route)/profile.svg?\(query)", token: scene.olga)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorCode == "invalid_request")
            }
            let narrow = try await client.send(.get, "/v1/routes/\(scene.route)/map.svg?width=100", token: scene.olga)
            let root = try #require(try ParsedSVG(narrow.text).document.rootElement())
            #expect(ParsedSVG.number(root, "width") == 100)
        }
    }

    @Test func aScriptNameIsTextInEveryPicture() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let name = "<script>alert(1)</script>"
            let route = try await client.newSharedRoute(olga, name: #"<script>alert(1)<\/script>"#)
            let link = try await client.newLink(olga, route)
            let group = try await client.newGroup(olga, name, [route])
            let other = try await client.newGroup(olga, "Other", [route])
            for (path, token) in [
                ("/v1/routes/\(route)/map.svg", olga), ("/v1/routes/\(route)/profile.svg", olga),
                ("/v1/links/\(link.secret)/map.svg", nil), ("/v1/compare.svg?groups=\(group),\(other)", olga),
            ] {
                let response = try await client.send(.get, path, token: token)
                #expect(response.status == .ok, "\(path)")
                let parsed = try ParsedSVG(response.text)
                #expect(parsed.elements("script").isEmpty, "\(path)")
                #expect(!response.text.contains("<script"), "\(path)")
                #expect(
                    (parsed.title ?? "").contains(name) || parsed.allText.contains(name),
                    "\(path): \(parsed.title ?? "")")
            }
        }
    }

    @Test func compareDrawsTheGroupsInRankingOrder() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            var slow: [String] = []
            var fast: [String] = []
            for (i, seconds) in [600.0, 620, 640].enumerated() {
                slow.append(
                    try await client.newGroupRoute(
                        olga, "slow \(i)", GroupFixture.leg(metres: 2000, seconds: seconds)))
            }
            for (i, seconds) in [400.0, 410, 450].enumerated() {
                fast.append(
                    try await client.newGroupRoute(olga, "fast \(i)", GroupFixture.leg(metres: 2000, seconds: seconds)))
            }
            let slowGroup = try await client.newGroup(olga, "Slow", slow)
            let fastGroup = try await client.newGroup(olga, "Fast", fast)
            let response = try await client.send(.get, "/v1/compare.svg?groups=\(slowGroup),\(fastGroup)", token: olga)
            #expect(response.status == .ok)
            let parsed = try ParsedSVG(response.text)
            let order = parsed.elements("g", class: "group").compactMap { ParsedSVG.attribute($0, "data-group") }
            #expect(order == [fastGroup, slowGroup])
            #expect(parsed.elements("rect", class: "box").count == 2)
            #expect(parsed.elements("circle", class: "dot").count == 6)
            let p = try #require(parsed.elements("text", class: "p-value").first?.stringValue)
            #expect(p.hasPrefix("p "))
            // Speed: higher is better, so the order holds (fast first) on that metric too.
            let bySpeed = try await client.send(
                .get, "/v1/compare.svg?groups=\(slowGroup),\(fastGroup)&metric=avg_speed_mps", token: olga)
            let speedOrder = try ParsedSVG(bySpeed.text).elements("g", class: "group").compactMap {
                ParsedSVG.attribute($0, "data-group")
            }
            #expect(speedOrder == [fastGroup, slowGroup])
            // The same checks as /v1/compare.
            #expect(
                try await client.send(.get, "/v1/compare.svg?groups=\(slowGroup)", token: olga).status == .badRequest)
            #expect(
                try await client.send(.get, "/v1/compare.svg?groups=\(slowGroup),\(fastGroup)").status == .unauthorized)
            let sam = try await client.register("sam")
            #expect(
                try await client.send(.get, "/v1/compare.svg?groups=\(slowGroup),\(fastGroup)", token: sam).status
                    == .notFound)
        }
    }
}
