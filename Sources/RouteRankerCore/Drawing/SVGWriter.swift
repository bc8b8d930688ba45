/// A small writer of static SVG documents: every text and attribute value is escaped, every number
/// is written with a fixed number of decimals, and nothing can add a script or load anything.
///
/// Elements are written in order with ``element(_:_:text:)``, ``open(_:_:)`` and ``close()``;
/// ``finish()`` closes what is still open and returns the document.
public struct SVGWriter: Sendable {
    /// An attribute value: a number (written with ``SVGNumber``) or text (escaped).
    public enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        case number(Double)
        case text(String)

        public init(stringLiteral value: String) { self = .text(value) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }

        var written: String {
            switch self {
            case .number(let n): SVGNumber.format(n)
            case .text(let s): XMLText.escape(s)
            }
        }
    }

    /// The width and height of the picture in pixels.
    public let width: Double
    public let height: Double
    private var output: String
    private var openElements: [String] = []

    /// A document of `width` × `height` pixels whose `<title>` (what readers and browsers show
    /// for the picture) is `title`, and whose `<desc>` is `description` when given.
    public init(width: Double, height: Double, title: String, description: String? = nil) {
        self.width = width
        self.height = height
        let w = SVGNumber.format(width)
        let h = SVGNumber.format(height)
        output =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
            + " role=\"img\" font-family=\"system-ui, sans-serif\" font-size=\"12\">"
            + "<title>\(XMLText.escape(title))</title>"
        if let description { output += "<desc>\(XMLText.escape(description))</desc>" }
        openElements = ["svg"]
    }

    /// Writes `<name attributes…>text</name>` (or `<name …/>` without text).
    public mutating func element(_ name: String, _ attributes: KeyValuePairs<String, Value>, text: String? = nil) {
        output += "<\(name)\(Self.attributes(attributes))"
        if let text {
            output += ">\(XMLText.escape(text))</\(name)>"
        } else {
            output += "/>"
        }
    }

    /// Opens `<name attributes…>`; ``close()`` ends it.
    public mutating func open(_ name: String, _ attributes: KeyValuePairs<String, Value> = [:]) {
        output += "<\(name)\(Self.attributes(attributes))>"
        openElements.append(name)
    }

    /// Ends the innermost open element.
    public mutating func close() {
        guard openElements.count > 1, let name = openElements.popLast() else { return }
        output += "</\(name)>"
    }

    /// A `points` attribute value for `<polyline>`: `x,y x,y …` with the writer's precision.
    public static func points(_ xy: [(x: Double, y: Double)]) -> String {
        xy.map { "\(SVGNumber.format($0.x)),\(SVGNumber.format($0.y))" }.joined(separator: " ")
    }

    /// The finished document.
    public mutating func finish() -> String {
        while openElements.count > 1 { close() }
        openElements = []
        return output + "</svg>\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, Value>) -> String {
        attributes.map { " \($0.key)=\"\($0.value.written)\"" }.joined()
    }
}

/// Numbers as SVG writes them: at most ``decimals`` decimals, no exponent, no trailing zeros,
/// never `-0`; not-finite values become 0 so that a document always parses.
public enum SVGNumber {
    /// Decimals kept: a tenth of a pixel is finer than any screen shows.
    public static let decimals = 1

    /// `value` rounded to ``decimals`` decimals, written without exponent or trailing zeros.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scale = 10.0
        let scaled = (value * scale).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let magnitude = abs(scaled)
        guard magnitude < 1e15, let units = Int64(exactly: magnitude) else { return negative ? "-1e15" : "1e15" }
        let whole = units / 10
        let tenth = units % 10
        let text = tenth == 0 ? "\(whole)" : "\(whole).\(tenth)"
        return negative ? "-" + text : text
    }
}
