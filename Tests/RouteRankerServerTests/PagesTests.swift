import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The share link page and the web app's files (API.md "Pictures and pages").
@Suite struct PagesTests {
    @Test func theLinkPageShowsTheRouteForPeople() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let created = try await client.send(.post, "/v1/routes/\(scene.route)/links", token: scene.olga, json: "{}")
            let pageURL = try #require(created.json["page_url"] as? String)
            let url = try #require(created.json["url"] as? String)
            #expect(pageURL == "/l/" + url.dropFirst("/v1/links/".count))

            let page = try await client.send(.get, pageURL)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"))
            #expect(!csp.contains("http"))
            let html = page.text
            #expect(html.contains("<h1 id=\"route-name\">Loop</h1>"))
            #expect(html.contains("olga"))
            #expect(html.contains("2.90 km"))  // 29 steps of 100 m
            #expect(html.contains("9:40"))  // 29 × 20 s
            #expect(html.contains("<meta property=\"og:title\" content=\"Loop\">"))
            #expect(html.contains("format=gpx") && html.contains("format=geojson"))
            // The inline map has the visible points only.
            let start = try #require(html.range(of: "<svg"))
            let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
            let map = try ParsedSVG(String(html[start.lowerBound..<end.upperBound]))
            let line = try #require(map.elements("polyline", class: "route").first)
            #expect(ParsedSVG.points(line).count == 24)
            #expect(!html.contains("Home gate"))
        }
    }

    @Test func aScriptNameIsTextOnThePage() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", name: "O<b>lga")
            let route = try await client.newSharedRoute(olga, name: #"<script>alert(1)<\/script>"#)
            let link = try await client.newLink(olga, route)
            let html = try await client.send(.get, "/l/\(link.secret)").text
            #expect(!html.contains("<script>alert"))
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!html.contains("O<b>lga"))
            #expect(html.contains("O&lt;b&gt;lga"))
        }
    }

    @Test func aDeadLinkIsA404Page() async throws {
        try await withApp { client in
            let olga = try await client.register("olga")
            let route = try await client.newSharedRoute(olga)
            let link = try await client.newLink(olga, route)
            #expect(
                try await client.send(.delete, "/v1/routes/\(route)/links/\(link.id)", token: olga).status
                    == .noContent)
            let revoked = try await client.send(.get, "/l/\(link.secret)")
            let madeUp = try await client.send(.get, "/l/\(SharingFixture.madeUpSecret)")
            for response in [revoked, madeUp] {
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.text.contains("This link does not work"))
                #expect(response.headers[.contentSecurityPolicy] != nil)
            }
            #expect(revoked.text == madeUp.text)
        }
    }

    @Test func theWebAppIsServedFromTheBinaryWithAStrictPolicy() async throws {
        try await withApp { client in
            let index = try await client.send(.get, "/")
            #expect(index.status == .ok)
            #expect(index.headers[.contentType] == "text/html; charset=utf-8")
            #expect(index.headers[.contentSecurityPolicy] == WebPageExpectation.policy)
            for (file, type) in [
                ("app.js", "text/javascript"), ("app.css", "text/css"), ("page.css", "text/css"),
                ("favicon.svg", "image/svg+xml"),
            ] {
                let response = try await client.send(.get, "/web/\(file)")
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == type + "; charset=utf-8", "\(file)")
                #expect(!response.text.isEmpty)
            }
            // The app's ES modules, reached as the browser reaches them: from app.js through their imports.
            var modules: [String] = []
            var next = ["app.js"]
            while let module = next.popLast() {
                guard !modules.contains(module) else { continue }
                modules.append(module)
                let response = try await client.send(.get, "/web/\(module)")
                #expect(response.status == .ok, "\(module)")
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8", "\(module)")
                #expect(response.headers[.contentSecurityPolicy] == WebPageExpectation.policy, "\(module)")
                #expect(response.headers[.cacheControl] == "no-cache", "\(module)")
                next += WebAppModulesTests.imports(of: response.text)
            }
            #expect(modules.count > 1)
            // Nothing in the app names another origin.
            for file in ["/", "/web/app.css"] + modules.map({ "/web/\($0)" }) {
                let text = try await client.send(.get, file).text
                #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(file)")
            }
            for missing in ["/web/nope.js", "/web/..%2Fopenapi.yaml", "/web/index"] {
                let response = try await client.send(.get, missing)
                #expect(response.status == .notFound, "\(missing)")
            }
        }
    }
}

enum WebPageExpectation {
    static let policy = policy(tileOrigin: nil)

    /// The pages' policy, written out: only the tile origin, when there is one, is added.
    static func policy(tileOrigin: String?) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:"
            + (tileOrigin.map { " \($0)" } ?? "") + "; connect-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }
}

/// Maps over an operator's tiles (`--tile-url`): the link page, the app's files and the maps
/// asked for with `tiles=true` allow that origin's images, and nothing else; without a tile
/// server, `tiles=true` gives the plain map and every policy stays as strict as ever.
@Suite struct MapTilesPagesTests {
    static let tiles = try! MapTiles(template: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: "© Example")

    @Test func aTileServerShowsOnTheLinkPageAndInTheAppsMaps() async throws {
        try await withApp(configure: { $0.mapTiles = Self.tiles }) { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let page = try await client.send(.get, "/l/\(scene.secret)")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy == WebPageExpectation.policy(tileOrigin: "https://tiles.example.org"))
            let html = page.text
            let start = try #require(html.range(of: "<svg"))
            let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
            let map = try ParsedSVG(String(html[start.lowerBound..<end.upperBound]))
            let hrefs = map.elements("image", class: "tile").compactMap { ParsedSVG.attribute($0, "href") }
            #expect(!hrefs.isEmpty && hrefs.allSatisfy { $0.hasPrefix("https://tiles.example.org/") })
            #expect(map.elements("g", class: "attribution").first?.stringValue == "© Example")
            // The link holder's line still has only the points outside the zones.
            #expect(map.elements("polyline", class: "route").first.map { ParsedSVG.points($0).count } == 24)

            let index = try await client.send(.get, "/")
            #expect(
                index.headers[.contentSecurityPolicy]
                    == WebPageExpectation.policy(tileOrigin: "https://tiles.example.org"))

            for path in ["/v1/routes/\(scene.route)/map.svg", "/v1/links/\(scene.secret)/map.svg"] {
                let tiled = try await client.send(.get, path + "?tiles=true", token: scene.olga)
                #expect(tiled.status == .ok)
                #expect(tiled.headers[.contentSecurityPolicy]?.contains("img-src https://tiles.example.org;") == true)
                #expect(try ParsedSVG(tiled.text).elements("image", class: "tile").count >= 2)
                let plain = try await client.send(.get, path, token: scene.olga)
                #expect(try ParsedSVG(plain.text).elements("image").isEmpty)
                #expect(plain.headers[.contentSecurityPolicy]?.contains("img-src") == false)
                // A cached plain map is never taken for the tiled one.
                #expect(plain.headers[.eTag] != tiled.headers[.eTag])
                let wrong = try await client.send(.get, path + "?tiles=maybe", token: scene.olga)
                #expect(wrong.status.code >= 400 && wrong.status.code < 500)
                #expect(wrong.text.contains("'tiles' must be true or false"))
            }
        }
    }

    @Test func withoutATileServerNothingChanges() async throws {
        try await withApp { client in
            let scene = try await PrivacyZonesTests.scene(client)
            let tiled = try await client.send(.get, "/v1/routes/\(scene.route)/map.svg?tiles=true", token: scene.olga)
            let plain = try await client.send(.get, "/v1/routes/\(scene.route)/map.svg", token: scene.olga)
            #expect(tiled.status == .ok && tiled.text == plain.text)
            #expect(tiled.headers[.contentSecurityPolicy] == plain.headers[.contentSecurityPolicy])
            let page = try await client.send(.get, "/l/\(scene.secret)")
            #expect(page.headers[.contentSecurityPolicy] == WebPageExpectation.policy)
            #expect(!page.text.contains("<image"))
        }
    }
}
