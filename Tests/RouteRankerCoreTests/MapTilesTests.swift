import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Maps over an operator's tiles: the tile server's address is checked once, the zoom is the
/// deepest the route fits in, the tiles cover the picture, and each point of the line lies on the
/// tile, and at the place in it, that OpenStreetMap's own tile formula gives.
@Suite struct MapTilesTests {
    static let tiles = try! MapTiles(
        template: "https://tiles.example.org/base/{z}/{x}/{y}.png", attribution: "© <OSM> & co")

    @Test func aTileServerIsCheckedOnce() throws {
        #expect(Self.tiles.origin == "https://tiles.example.org")
        #expect(Self.tiles.url(z: 12, x: 2200, y: 1400) == "https://tiles.example.org/base/12/2200/1400.png")
        let local = try MapTiles(template: "http://127.0.0.1:8099/{z}/{x}/{y}.png", attribution: "Test tiles")
        #expect(local.origin == "http://127.0.0.1:8099")
        for (template, attribution) in [
            ("https://tiles.example.org/{z}/{x}.png", "A"),  // no {y}
            ("https://{s}.tiles.example.org/{z}/{x}/{y}.png", "A"),  // a placeholder we do not fill
            ("ftp://tiles.example.org/{z}/{x}/{y}.png", "A"),
            ("/tiles/{z}/{x}/{y}.png", "A"),  // no origin
            ("https://user:pw@tiles.example.org/{z}/{x}/{y}.png", "A"),
            ("https://tiles.example.org/{z}/{x}/{y}.png", "  "),  // no credit
        ] {
            #expect(throws: MapTiles.Invalid.self, "\(template)") {
                try MapTiles(template: template, attribution: attribution)
            }
        }
    }

    /// OpenStreetMap's tile numbers (the wiki's formula, with `asinh`): the tile holding a point
    /// at zoom `z`, and where in it, as fractions of a tile.
    static func osmTile(lat: Double, lon: Double, z: Int) -> (x: Int, y: Int, fx: Double, fy: Double) {
        let n = pow(2, Double(z))
        let x = (lon + 180) / 360 * n
        let y = (1 - asinh(tan(lat * .pi / 180)) / .pi) / 2 * n
        return (Int(x.rounded(.down)), Int(y.rounded(.down)), x - x.rounded(.down), y - y.rounded(.down))
    }

    @Test func theLineLiesOnTheTilesWhereOpenStreetMapPutsItsPoints() throws {
        let points = PictureTests.route()
        let svg = RouteMapPicture.svg(points: points, width: 640, title: "Over tiles", tiles: Self.tiles)
        let parsed = try ParsedSVG(svg)
        let root = try #require(parsed.document.rootElement())
        let width = try #require(ParsedSVG.number(root, "width"))
        let height = try #require(ParsedSVG.number(root, "height"))
        let images = parsed.elements("image", class: "tile")
        #expect(!images.isEmpty)
        // Each tile by its number, as its address names it.
        var placed: [String: (x: Double, y: Double)] = [:]
        var zooms = Set<Int>()
        for image in images {
            let href = try #require(ParsedSVG.attribute(image, "href"))
            let parts = href.dropFirst("https://tiles.example.org/base/".count).dropLast(".png".count)
                .split(separator: "/").compactMap { Int($0) }
            #expect(parts.count == 3, "\(href)")
            zooms.insert(parts[0])
            #expect(ParsedSVG.number(image, "width") == 256 && ParsedSVG.number(image, "height") == 256)
            placed["\(parts[1])/\(parts[2])"] = (
                ParsedSVG.number(image, "x") ?? .nan, ParsedSVG.number(image, "y") ?? .nan
            )
        }
        let zoom = try #require(zooms.count == 1 ? zooms.first : nil)
        // The tiles cover the picture: every pixel corner lies in some tile.
        for x in stride(from: 0.0, through: width, by: 16) {
            for y in stride(from: 0.0, through: height, by: 16) {
                #expect(placed.values.contains { x >= $0.x && x <= $0.x + 256 && y >= $0.y && y <= $0.y + 256 })
            }
        }
        // Every vertex of the line sits where OpenStreetMap's formula puts its point (within the
        // picture's 0.1 px rounding, twice: the tile's corner and the vertex).
        let line = try #require(parsed.elements("polyline", class: "route").first)
        let drawn = ParsedSVG.points(line)
        #expect(drawn.count == points.count)
        for (vertex, point) in zip(drawn, points) {
            #expect(vertex.x >= 0 && vertex.x <= width && vertex.y >= 0 && vertex.y <= height)
            let tile = Self.osmTile(lat: point.lat, lon: point.lon, z: zoom)
            let corner = try #require(placed["\(tile.x)/\(tile.y)"], "tile \(tile) holds the point")
            #expect(abs(corner.x + tile.fx * 256 - vertex.x) <= 0.11)
            #expect(abs(corner.y + tile.fy * 256 - vertex.y) <= 0.11)
        }
        // The deepest zoom that fits: one deeper, the route would not fit inside the margins.
        let projected = points.map { WebMercator.project(lat: $0.lat, lon: $0.lon) }
        let spanX = (projected.map(\.x).max() ?? 0) - (projected.map(\.x).min() ?? 0)
        let spanY = (projected.map(\.y).max() ?? 0) - (projected.map(\.y).min() ?? 0)
        let deeper = 256 * pow(2, Double(zoom + 1))
        let margin = RouteMapPicture.margin
        #expect(spanX * deeper > width - 2 * margin || spanY * deeper > height - 2 * margin)
        // The credit, as text.
        let credit = try #require(parsed.elements("g", class: "attribution").first)
        #expect(credit.stringValue == "© <OSM> & co")
        #expect(svg.contains("© &lt;OSM&gt; &amp; co"))
    }

    @Test func aRouteAcrossTheAntimeridianWrapsItsTiles() throws {
        let points = [
            TrackPoint(lat: -17.0, lon: 179.9995, t: 0), TrackPoint(lat: -17.001, lon: 179.9999, t: 10),
        ]
        let svg = RouteMapPicture.svg(points: points, width: 400, title: "Fiji", tiles: Self.tiles)
        let parsed = try ParsedSVG(svg)
        let images = parsed.elements("image", class: "tile")
        // The picture reaches past 180° E: its right-hand tiles are the world's first columns.
        let hrefs = images.compactMap { ParsedSVG.attribute($0, "href") }
        #expect(hrefs.contains { $0.contains("/0/") }, "\(hrefs)")
        for image in images {
            let href = try #require(ParsedSVG.attribute(image, "href"))
            let parts = href.split(separator: "/").suffix(3).map { Int($0.split(separator: ".")[0]) ?? -1 }
            #expect(parts[1] >= 0 && parts[1] < 1 << parts[0], "\(href)")
            #expect(parts[2] >= 0 && parts[2] < 1 << parts[0], "\(href)")
        }
    }

    @Test func withoutTilesTheMapLoadsNothing() throws {
        let svg = RouteMapPicture.svg(points: PictureTests.route(), width: 640, title: "Plain")
        let parsed = try ParsedSVG(svg)
        #expect(parsed.elements("image").isEmpty)
        #expect(parsed.elements("g", class: "attribution").isEmpty)
        #expect(!svg.contains("href"))
    }

    /// A single point has no extent to fit: it is shown at the plain map's scale of about a metre
    /// per pixel, zoom 17.
    @Test func aSinglePointIsShownAtStreetLevel() throws {
        let svg = RouteMapPicture.svg(
            points: [TrackPoint(lat: 51.5, lon: -0.12, t: 0)], width: 300, title: "One", tiles: Self.tiles)
        let parsed = try ParsedSVG(svg)
        let hrefs = parsed.elements("image", class: "tile").compactMap { ParsedSVG.attribute($0, "href") }
        #expect(!hrefs.isEmpty && hrefs.allSatisfy { $0.hasPrefix("https://tiles.example.org/base/17/") })
    }
}
