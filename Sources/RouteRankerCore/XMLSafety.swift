import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The checks an XML upload (GPX, TCX) passes before Foundation's `XMLParser` sees a byte.
enum XMLSafety {
    /// Refuses DOCTYPE and ENTITY declarations (no entity expansion, no external loads) and
    /// anything that is not UTF-8: other encodings could hide a DOCTYPE from the byte check, and
    /// FoundationXML crashes on some element names that are not valid UTF-8 (found by fuzzing:
    /// `<gpx xml\u{E8}…`), so such a document must never reach it. Also refuses processing
    /// instructions without data (`<?name?>`): FoundationXML hands libxml2's null data pointer to
    /// `strlen` and crashes (found by fuzzing: `<?utf4ler?>e`).
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
        if hasEmptyProcessingInstruction(data) {
            throw FormatError.body("\(format) with a processing instruction that has no data is not accepted")
        }
    }

    /// Whether some `<?target?>` (optionally with blanks before `?>`) appears anywhere. Looks at
    /// every `<?`, also inside comments and CDATA, which may refuse a harmless document but never
    /// lets a crashing one through.
    static func hasEmptyProcessingInstruction(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            var cursor = index + 2
            while cursor < bytes.count, !blanks.contains(bytes[cursor]), bytes[cursor] != UInt8(ascii: "?") {
                cursor += 1
            }
            while cursor < bytes.count, blanks.contains(bytes[cursor]) { cursor += 1 }
            if cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "?"), bytes[cursor + 1] == UInt8(ascii: ">") {
                return true
            }
            index += 2
        }
        return false
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
