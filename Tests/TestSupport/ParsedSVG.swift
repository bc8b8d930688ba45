import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG parsed as XML, for tests that read what was drawn rather than compare strings.
public struct ParsedSVG {
    public let document: XMLDocument

    /// Parses `svg`; throws unless it is well-formed XML whose root is `<svg>`.
    public init(_ svg: String) throws {
        document = try XMLDocument(xmlString: svg, options: [])
        guard document.rootElement()?.name == "svg" else { throw NotSVG() }
    }

    public struct NotSVG: Error {}

    /// Every element called `name`, in document order, wherever it is.
    public func elements(_ name: String) -> [XMLElement] {
        var found: [XMLElement] = []
        func walk(_ node: XMLNode) {
            if let element = node as? XMLElement, element.name == name { found.append(element) }
            for child in node.children ?? [] { walk(child) }
        }
        if let root = document.rootElement() { walk(root) }
        return found
    }

    /// Elements called `name` whose `class` is `cls`.
    public func elements(_ name: String, class cls: String) -> [XMLElement] {
        elements(name).filter { ParsedSVG.attribute($0, "class") == cls }
    }

    /// The text of the document's `<title>`.
    public var title: String? { elements("title").first?.stringValue }

    /// Every text node's content, joined: what a reader of the picture sees.
    public var allText: String { elements("text").compactMap(\.stringValue).joined(separator: "\n") }

    /// A polyline's `points` as pairs.
    public static func points(_ element: XMLElement) -> [(x: Double, y: Double)] {
        let raw = ParsedSVG.attribute(element, "points") ?? ""
        return raw.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
            return (x, y)
        }
    }

    /// An attribute's value. (FoundationXML's `attribute(forName:)` finds nothing in a document
    /// with a default namespace, as every SVG has: the attributes are matched by name here.)
    public static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { ($0.localName ?? $0.name) == name || $0.name == name }?.stringValue
    }

    /// An attribute's value as a number.
    public static func number(_ element: XMLElement, _ attribute: String) -> Double? {
        ParsedSVG.attribute(element, attribute).flatMap(Double.init)
    }
}
