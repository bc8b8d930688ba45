import Foundation

/// A route drawn as a line on a blank Web Mercator map: fitted into the picture with the aspect
/// kept, start and end marked, and a scale bar. No tiles: nothing but the points is shown.
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

    /// The SVG of `points` (those the reader may see, in order) at `width` pixels, titled `title`.
    public static func svg(points: [TrackPoint], width: Double, title: String) -> String {
        let fit = fit(points, width: width)
        var svg = SVGWriter(
            width: fit.width, height: fit.height, title: title,
            description: points.isEmpty ? "No points to show." : "The route drawn from \(points.count) points.")
        svg.element(
            "rect",
            ["class": "background", "width": .number(fit.width), "height": .number(fit.height), "fill": "#eef1ea"])
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
        return svg.finish()
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

    private static func drawScaleBar(_ svg: inout SVGWriter, fit: MapFit, latitude: Double) {
        let mpp = fit.metresPerPixel(atLatitude: latitude)
        let metres = scaleBarMetres(metresPerPixel: mpp, width: fit.width)
        let length = metres / mpp
        let x = 12.0
        let y = fit.height - 12
        let label = metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m"
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
