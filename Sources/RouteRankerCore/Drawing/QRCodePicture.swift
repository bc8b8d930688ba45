/// A QR Code's modules drawn as SVG: black on white, with the 4-module quiet zone a reader needs
/// around the symbol. The dark modules are one `<path>` in module units (scaled to pixels), each
/// horizontal run of dark modules in a row one rectangle, with crisp edges.
public enum QRCodeSVG {
    /// Light modules kept around the symbol (ISO/IEC 18004 asks for 4).
    public static let quietZone = 4

    /// The SVG of `modules` (rows from the top, `true` dark, as square as a QR Code's), titled
    /// `title`, `moduleSize` pixels a module.
    public static func svg(modules: [[Bool]], title: String, moduleSize: Double) -> String {
        let side = Double(modules.count + 2 * quietZone) * moduleSize
        var svg = SVGWriter(width: side, height: side, title: title)
        svg.element("rect", ["class": "background", "width": .number(side), "height": .number(side), "fill": "#fff"])
        let d = path(modules)
        if !d.isEmpty {
            svg.element(
                "path",
                [
                    "class": "modules", "d": .text(d), "transform": .text("scale(\(SVGNumber.format(moduleSize)))"),
                    "fill": "#000", "shape-rendering": "crispEdges",
                ])
        }
        return svg.finish()
    }

    /// The `d` of the dark modules, in module units with the quiet zone added: `M x y h n v1 h-n z`
    /// for each run of `n` dark modules in a row.
    public static func path(_ modules: [[Bool]]) -> String {
        var d = ""
        for (y, row) in modules.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else {
                    x += 1
                    continue
                }
                let start = x
                while x < row.count, row[x] { x += 1 }
                let n = x - start
                d += "M\(start + quietZone) \(y + quietZone)h\(n)v1h-\(n)z"
            }
        }
        return d
    }
}
