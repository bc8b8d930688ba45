import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A QR Code's picture, read back as XML: its path, filled in, is exactly the dark modules, inside
/// a white quiet zone of 4 modules.
@Suite struct QRCodePictureTests {
    /// A symbol-like grid with runs at both edges, single modules and empty rows.
    static let modules: [[Bool]] = (0..<21).map { r in
        (0..<21).map { c in r == 0 || c == 20 || (r * 7 + c * 3) % 5 < 2 || (r == 10 && c < 10) }
    }

    @Test func thePathFilledInIsTheDarkModules() throws {
        let svg = QRCodeSVG.svg(modules: Self.modules, title: "Set up <OwnTracks> & co", moduleSize: 8)
        let parsed = try ParsedSVG(svg)
        #expect(parsed.title == "Set up <OwnTracks> & co")
        #expect(parsed.elements("script").isEmpty)
        let root = try #require(parsed.document.rootElement())
        #expect(ParsedSVG.number(root, "width") == Double(29 * 8))
        #expect(ParsedSVG.number(root, "height") == Double(29 * 8))
        let background = try #require(parsed.elements("rect", class: "background").first)
        #expect(ParsedSVG.attribute(background, "fill") == "#fff")
        #expect(ParsedSVG.number(background, "width") == Double(29 * 8))
        let paths = parsed.elements("path")
        #expect(paths.count == 1)
        let path = try #require(paths.first)
        #expect(ParsedSVG.attribute(path, "shape-rendering") == "crispEdges")
        #expect(ParsedSVG.attribute(path, "transform") == "scale(8)")
        #expect(ParsedSVG.attribute(path, "fill") == "#000")
        let drawn = try Self.fill(ParsedSVG.attribute(path, "d") ?? "", side: 29)
        // The quiet zone is light; inside it, the drawing is the grid.
        for r in 0..<29 {
            for c in 0..<29 {
                let inside = (4..<25).contains(r) && (4..<25).contains(c)
                #expect(drawn[r][c] == (inside && Self.modules[r - 4][c - 4]), "(\(r), \(c))")
            }
        }
    }

    @Test func runsAreMergedAlongARow() {
        #expect(QRCodeSVG.path([[true, true, true, false, true]]) == "M4 4h3v1h-3zM8 4h1v1h-1z")
        #expect(QRCodeSVG.path([[false, false], [false, false]]).isEmpty)
        // A full row is one rectangle.
        #expect(QRCodeSVG.path([Array(repeating: true, count: 21)]) == "M4 4h21v1h-21z")
    }

    @Test func aFractionalModuleSizeIsWrittenAsIs() throws {
        let parsed = try ParsedSVG(QRCodeSVG.svg(modules: Self.modules, title: "Q", moduleSize: 2.5))
        let root = try #require(parsed.document.rootElement())
        #expect(ParsedSVG.number(root, "width") == 72.5)
        #expect(ParsedSVG.attribute(try #require(parsed.elements("path").first), "transform") == "scale(2.5)")
    }

    /// The modules a path of `M x y h n v1 h-n z` rectangles covers, on a `side` × `side` grid.
    static func fill(_ d: String, side: Int) throws -> [[Bool]] {
        var grid = Array(repeating: Array(repeating: false, count: side), count: side)
        for match in d.matches(of: /M(\d+) (\d+)h(\d+)v1h-(\d+)z/) {
            let (x, y, n) = (Int(match.1)!, Int(match.2)!, Int(match.3)!)
            #expect(Int(match.4)! == n)
            for c in x..<(x + n) {
                #expect(!grid[y][c], "a module drawn twice")
                grid[y][c] = true
            }
        }
        // Nothing but those rectangles.
        #expect(d.replacing(/M\d+ \d+h\d+v1h-\d+z/, with: "").isEmpty)
        return grid
    }
}
