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
        if let line = lineOfElementWithTooManyAttributes(data) {
            throw FormatError.body(
                "\(format) elements may have at most \(maxAttributes) attributes; one has more", line: line)
        }
    }

    /// The most attributes (namespace declarations included) one element may have. A GPX `trkpt`
    /// has two, a root a dozen at most. libxml2 and FoundationXML handle an element's attributes
    /// in time quadratic in their number (a `trkpt` with 300,000 attributes took 20 s of CPU), so
    /// the count is checked on the bytes, in one linear pass, before the parser sees them.
    static let maxAttributes = 64

    private enum Markers {
        static let comment = Array("<!--".utf8)
        static let commentEnd = Array("-->".utf8)
        static let cdata = Array("<![CDATA[".utf8)
        static let cdataEnd = Array("]]>".utf8)
        static let instruction = Array("<?".utf8)
        static let instructionEnd = Array("?>".utf8)
        static let declaration = Array("<!".utf8)
        static let endTag = Array("</".utf8)
        static let tagEnd = Array(">".utf8)
    }

    /// The 1-based line of the first start tag with more than ``maxAttributes`` attributes, or nil.
    ///
    /// Counts the `=` outside quoted values of each start tag, skipping comments, CDATA sections,
    /// processing instructions, declarations and end tags. Every byte is looked at once, so a
    /// malformed document costs no more than a good one (the parser then refuses it).
    static func lineOfElementWithTooManyAttributes(_ data: Data) -> Int? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var line = 1
            var i = 0
            /// Moves `i` just past `terminator` (or to the end), counting lines on the way.
            func skip(past terminator: [UInt8]) {
                while i < count {
                    if bytes[i] == 0x0A { line += 1 }
                    if bytes[i] == terminator[0], i + terminator.count <= count,
                        terminator.indices.allSatisfy({ bytes[i + $0] == terminator[$0] })
                    {
                        i += terminator.count
                        return
                    }
                    i += 1
                }
            }
            func starts(with marker: [UInt8]) -> Bool {
                i + marker.count <= count && marker.indices.allSatisfy { bytes[i + $0] == marker[$0] }
            }
            while i < count {
                let byte = bytes[i]
                if byte == 0x0A { line += 1 }
                guard byte == UInt8(ascii: "<") else {
                    i += 1
                    continue
                }
                if starts(with: Markers.comment) {
                    skip(past: Markers.commentEnd)
                } else if starts(with: Markers.cdata) {
                    skip(past: Markers.cdataEnd)
                } else if starts(with: Markers.instruction) {
                    skip(past: Markers.instructionEnd)
                } else if starts(with: Markers.declaration) || starts(with: Markers.endTag) {
                    skip(past: Markers.tagEnd)
                } else {
                    let tagLine = line
                    var attributes = 0
                    i += 1
                    while i < count, bytes[i] != UInt8(ascii: ">") {
                        let b = bytes[i]
                        if b == 0x0A { line += 1 }
                        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                            i += 1
                            while i < count, bytes[i] != b {
                                if bytes[i] == 0x0A { line += 1 }
                                i += 1
                            }
                        } else if b == UInt8(ascii: "=") {
                            attributes += 1
                            if attributes > maxAttributes { return tagLine }
                        }
                        i += 1
                    }
                    i += 1
                }
            }
            return nil
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
