import Foundation

/// An operator's map tile server: square Web Mercator tiles of ``size`` pixels (the "slippy map"
/// scheme of OpenStreetMap and most tile servers) at `template`, with `attribution` shown under
/// every map drawn over them, as tile licences require.
public struct MapTiles: Sendable, Equatable {
    /// The address of one tile, with `{z}`, `{x}` and `{y}` where the zoom and the tile's column
    /// and row go, e.g. `https://tile.example.org/{z}/{x}/{y}.png`.
    public let template: String
    /// The text every map over these tiles shows, e.g. `© OpenStreetMap contributors`.
    public let attribution: String
    /// `scheme://host[:port]` of `template`: what a page's Content-Security-Policy must allow.
    public let origin: String
    /// The deepest zoom asked for (most tile servers stop at 19).
    public let maxZoom: Int

    /// The side of a tile in pixels.
    public static let size = 256.0

    /// Why a tile server cannot be used.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The tile server at `template` (an `http` or `https` address naming `{z}`, `{x}` and `{y}`,
    /// nothing else in braces), credited with `attribution` (required: tile licences demand it).
    public init(template: String, attribution: String, maxZoom: Int = 19) throws(Invalid) {
        for placeholder in ["{z}", "{x}", "{y}"] where !template.contains(placeholder) {
            throw Invalid(description: "the tile URL must contain {z}, {x} and {y}; \(placeholder) is missing")
        }
        let filled = Self.fill(template, z: 0, x: 0, y: 0)
        guard !filled.contains("{"), !filled.contains("}") else {
            throw Invalid(description: "the tile URL may hold no placeholder other than {z}, {x} and {y}")
        }
        guard let url = URLComponents(string: filled), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty, url.user == nil
        else {
            throw Invalid(
                description: "the tile URL must be an http or https address such as https://host/{z}/{x}/{y}.png")
        }
        let trimmed = attribution.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw Invalid(description: "a tile server needs its attribution (--tile-attribution), which maps show")
        }
        guard (0...22).contains(maxZoom) else { throw Invalid(description: "the tile zoom must be from 0 to 22") }
        self.template = template
        self.attribution = trimmed
        // An IPv6 host keeps its brackets in the origin.
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.origin = "\(scheme)://\(hostText)" + (url.port.map { ":\($0)" } ?? "")
        self.maxZoom = maxZoom
    }

    /// The address of the tile at zoom `z`, column `x`, row `y`.
    public func url(z: Int, x: Int, y: Int) -> String { Self.fill(template, z: z, x: x, y: y) }

    private static func fill(_ template: String, z: Int, x: Int, y: Int) -> String {
        template.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }

    /// The tiles that cover a picture of `fit` (whose scale must be a tile zoom's, see
    /// ``MapFit/atTileZoom(_:)``): each tile's zoom, column and row (columns wrap around the
    /// antimeridian; rows beyond the poles are left out) and its top-left corner in the picture.
    ///
    /// The zoom is taken within 0...``deepestZoom``, and at most ``maxCovering`` tiles are listed
    /// (a picture of up to 2,000 × 2,500 pixels needs 99): columns and rows are computed from
    /// doubles a fit of any scale can make, so each is clamped to what the world at that zoom has
    /// (and columns to one turn around it) before anything counts on them.
    public static func covering(_ fit: MapFit, zoom: Int) -> [(z: Int, x: Int, y: Int, left: Double, top: Double)] {
        let zoom = min(max(zoom, 0), deepestZoom)
        let count = 1 << zoom
        let corner = fit.worldPixel(ofPicturePixel: (0, 0))
        guard corner.x.isFinite, corner.y.isFinite, fit.width.isFinite, fit.height.isFinite else { return [] }
        // Columns may lie outside the world (they wrap around the antimeridian): clamped to within
        // `maxCovering` tiles of it, which changes nothing a listed picture's tiles can be.
        let reach = count + maxCovering
        let firstColumn = (corner.x / size).clampedInt(in: -reach...reach, rounding: .down)
        let lastColumn = ((corner.x + fit.width) / size).clampedInt(in: -reach...reach, rounding: .up) - 1
        let firstRow = (corner.y / size).clampedInt(in: 0...count, rounding: .down)
        let lastRow = ((corner.y + fit.height) / size).clampedInt(in: 0...count, rounding: .up) - 1
        guard firstRow <= lastRow, firstColumn <= lastColumn,
            (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) <= maxCovering
        else { return [] }
        var tiles: [(z: Int, x: Int, y: Int, left: Double, top: Double)] = []
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let wrapped = ((column % count) + count) % count
                tiles.append(
                    (zoom, wrapped, row, Double(column) * size - corner.x, Double(row) * size - corner.y))
            }
        }
        return tiles
    }
}

extension MapTiles {
    /// The deepest zoom ``covering(_:zoom:)`` computes with (the deepest a ``MapTiles`` allows).
    public static let deepestZoom = 22
    /// The most tiles ``covering(_:zoom:)`` lists: a picture of 2,000 × 2,500 pixels (the largest
    /// the server draws) needs 9 × 11 = 99.
    public static let maxCovering = 128
}

extension MapFit {
    /// The deepest tile zoom (from 0 to `maxZoom`) at which the points still fit: the zoom whose
    /// scale is the largest not above this fit's (0 for a scale that is not positive or not a
    /// number).
    public func tileZoom(maxZoom: Int) -> Int {
        log2(scale / MapTiles.size).clampedInt(in: 0...max(0, maxZoom), rounding: .down)
    }

    /// This fit at exactly the scale of tile zoom `zoom` (``MapTiles/size`` × 2^zoom pixels per
    /// projected unit), with the same size and centre: at a zoom from ``tileZoom(maxZoom:)`` the
    /// points stay inside the picture, and tiles drawn at their own size line up with them.
    public func atTileZoom(_ zoom: Int) -> MapFit {
        let centre = projected(ofPicturePixel: (width / 2, height / 2))
        return MapFit(
            width: width, height: height, scale: MapTiles.size * pow(2, Double(zoom)), centre: centre)
    }

    /// Where the picture's pixel `p` lies in the whole world's pixels at this fit's scale (the
    /// world being `scale` pixels square, 0 at its top-left corner).
    public func worldPixel(ofPicturePixel p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let unit = projected(ofPicturePixel: p)
        return (unit.x * scale, unit.y * scale)
    }
}
