import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The checks an XML upload (GPX, TCX) passes before Foundation's `XMLParser` sees a byte.
enum XMLSafety {
    /// Refuses DOCTYPE and ENTITY declarations (no entity expansion, no external loads) and
    /// anything that is not UTF-8: other encodings could hide a DOCTYPE from the byte check, and
    /// FoundationXML crashes on some element names that are not valid UTF-8 (found by fuzzing:
    /// `<gpx xml\u{E8}…`), so such a document must never reach it.
    static func refuseUnsafe(_ data: Data, format: String) throws {
        let head = Array(data.prefix(4))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0])
            || head.starts(with: [0x3C, 0]) || head.starts(with: [0, 0x3C])
            || String(validating: data, as: UTF8.self) == nil
        {
            throw FormatError.body("\(format) must be encoded in UTF-8")
        }
        for marker in ["<!DOCTYPE", "<!ENTITY"] where data.range(of: Data(marker.utf8)) != nil {
            throw FormatError.body("\(format) with a DOCTYPE or entity declarations is not accepted")
        }
    }

    /// A parser over `data` that resolves no external entity, with namespaces processed. Stream
    /// mode feeds libxml2 in chunks; handed all of a document over 10 MB at once, its push parser
    /// stops with "Huge input lookup" (seen with swift-corelibs-foundation).
    static func parser(_ data: Data, delegate: any XMLParserDelegate) -> XMLParser {
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        return parser
    }
}
