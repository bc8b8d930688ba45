import Foundation

/// A route drawn as a line on a Web Mercator map: fitted into the picture with the aspect kept,
/// start and end marked, and a scale bar. On a blank background by default (nothing but the points
/// is shown, nothing is loaded); over an operator's ``MapTiles`` when given, with their attribution.
public enum RouteMapPicture {
    /// Pixels kept free around the line.
    public static let margin = 24.0

    /// The fit the picture uses for `points` at `width` pixels (the height follows the points,
    /// from 0.4 to 1.25 times the width).
    public static func fit(_ points: [TrackPoint], width: Double) -> MapFit {
        MapFit(
            projected: points.map { WebMercator.project(lat: $0.lat, lon: $0.lon) }, width: width, margin: margin,
            minHeight: (width * 0.4).rounded(), maxHeight: (width * 1.25).rounded())
    }

    /// The SVG of `points` (those the reader may see, in order) at `width` pixels, titled `title`;
    /// over `tiles` when given (the picture then loads them from the tile server).
    public static func svg(points: [TrackPoint], width: Double, title: String, tiles: MapTiles? = nil) -> String {
        var fit = fit(points, width: width)
        let zoom = tiles.map { fit.tileZoom(maxZoom: $0.maxZoom) }
        if let zoom { fit = fit.atTileZoom(zoom) }
        var svg = SVGWriter(
            width: fit.width, height: fit.height, title: title,
            description: points.isEmpty ? "No points to show." : "The route drawn from \(points.count) points.")
        svg.element(
            "rect",
            ["class": "background", "width": .number(fit.width), "height": .number(fit.height), "fill": "#eef1ea"])
        if let tiles, let zoom, !points.isEmpty { drawTiles(&svg, tiles: tiles, fit: fit, zoom: zoom) }
        guard let first = points.first, let last = points.last else {
            svg.element(
                "text",
                ["x": .number(fit.width / 2), "y": .number(fit.height / 2), "text-anchor": "middle", "fill": "#555"],
                text: "No points to show")
            return svg.finish()
        }
        let pixels = points.map { fit.pixel(WebMercator.project(lat: $0.lat, lon: $0.lon)) }
        let drawn =
            pixels.count <= PolylineThinning.exactLimit(width: fit.width) ? pixels : PolylineThinning.nearby(pixels)
        svg.element(
            "polyline",
            [
                "class": "route", "points": .text(SVGWriter.points(drawn)), "fill": "none", "stroke": "#c2410c",
                "stroke-width": 3, "stroke-linejoin": "round", "stroke-linecap": "round",
            ])
        let start = pixels[0]
        let end = pixels[pixels.count - 1]
        svg.element(
            "circle",
            [
                "class": "start", "cx": .number(start.x), "cy": .number(start.y), "r": 6, "fill": "#15803d",
                "stroke": "#fff", "stroke-width": 2,
            ])
        svg.element(
            "circle",
            [
                "class": "end", "cx": .number(end.x), "cy": .number(end.y), "r": 6, "fill": "#1e293b",
                "stroke": "#fff", "stroke-width": 2,
            ])
        drawScaleBar(&svg, fit: fit, latitude: (first.lat + last.lat) / 2)
        if let tiles { drawAttribution(&svg, tiles.attribution, fit: fit) }
        return svg.finish()
    }

    private static func drawTiles(_ svg: inout SVGWriter, tiles: MapTiles, fit: MapFit, zoom: Int) {
        svg.open("g", ["class": "tiles"])
        for tile in MapTiles.covering(fit, zoom: zoom) {
            svg.element(
                "image",
                [
                    "class": "tile", "href": .text(tiles.url(z: tile.z, x: tile.x, y: tile.y)),
                    "x": .number(tile.left), "y": .number(tile.top), "width": .number(MapTiles.size),
                    "height": .number(MapTiles.size),
                ])
        }
        svg.close()
    }

    /// The tile server's credit in the bottom-right corner, on a light band so that it reads over
    /// any tile (its width estimated from the text: SVG cannot size a box to its text).
    private static func drawAttribution(_ svg: inout SVGWriter, _ text: String, fit: MapFit) {
        let bandWidth = min(fit.width, Double(text.count) * 6.2 + 10)
        svg.open("g", ["class": "attribution"])
        svg.element(
            "rect",
            [
                "x": .number(fit.width - bandWidth), "y": .number(fit.height - 18), "width": .number(bandWidth),
                "height": 18, "fill": "#ffffff", "fill-opacity": 0.8,
            ])
        svg.element(
            "text",
            [
                "x": .number(fit.width - 5), "y": .number(fit.height - 5), "text-anchor": "end", "font-size": 11,
                "fill": "#1e293b",
            ], text: text)
        svg.close()
    }

    /// The scale bar's length in metres for a picture at `metresPerPixel`: the largest 1, 2 or 5
    /// × 10ᵏ m that fits in a quarter of the width.
    public static func scaleBarMetres(metresPerPixel: Double, width: Double) -> Double {
        let room = metresPerPixel * width / 4
        guard room.isFinite, room > 0 else { return 1 }
        let magnitude = pow(10, log10(room).rounded(.down))
        for factor in [5.0, 2, 1] where factor * magnitude <= room { return factor * magnitude }
        return magnitude
    }

    /// The scale bar's label for `metres` (a value of ``scaleBarMetres(metresPerPixel:width:)``):
    /// `2 km`, `500 m`; below a metre with its decimals (`0.005 m`), as the bar of a picture
    /// zoomed far in must say; beyond what an `Int64` holds as Swift writes a `Double`.
    public static func scaleBarLabel(_ metres: Double) -> String {
        if metres >= 1000 { return HumanFormat.fixed(metres / 1000, decimals: 0) + " km" }
        if metres >= 1 { return HumanFormat.fixed(metres, decimals: 0) + " m" }
        return ProfileChart.trimmed(metres) == "0" ? "\(metres) m" : ProfileChart.trimmed(metres) + " m"
    }

    private static func drawScaleBar(_ svg: inout SVGWriter, fit: MapFit, latitude: Double) {
        let mpp = fit.metresPerPixel(atLatitude: latitude)
        let metres = scaleBarMetres(metresPerPixel: mpp, width: fit.width)
        let length = metres / mpp
        let x = 12.0
        let y = fit.height - 12
        let label = scaleBarLabel(metres)
        svg.open("g", ["class": "scale-bar"])
        svg.element(
            "path",
            [
                "d": .text("M\(SVGNumber.format(x)),\(SVGNumber.format(y - 5))v5h\(SVGNumber.format(length))v-5"),
                "fill": "none", "stroke": "#1e293b", "stroke-width": 1.5,
            ])
        svg.element("text", ["x": .number(x + length + 6), "y": .number(y), "fill": "#1e293b"], text: label)
        svg.close()
    }
}
