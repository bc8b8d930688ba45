import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a Training Center XML document holds for RouteRanker.
public struct TCXDocument: Sendable, Hashable {
    /// Every `Trackpoint` with a `Position` in every `Lap` of every `Activity`, in document
    /// order (not sorted: use ``TrackPoint/sortedByTime(_:)`` before ingest).
    public var points: [TrackPoint]
    /// The first `Activity`'s `Sport` attribute (`Running`, `Biking`, `Other`).
    public var sport: String?
    /// The first `Activity`'s `Notes`, trimmed, when not empty.
    public var notes: String?

    /// API.md's activity: `Running` → run, `Biking` → ride, anything else → other.
    public var activity: Activity { TCXReader.activity(sport: sport) }

    /// API.md's default name: the first Activity's `Notes`, else `"<Sport> <YYYY-MM-DD>"` with the
    /// UTC date of the first point in time.
    public var defaultName: String {
        notes ?? ImportNaming.name(sport: sport ?? "Other", firstTime: points.lazy.map(\.t).min())
    }
}

/// Reads Training Center XML (`application/vnd.garmin.tcx+xml`) with GPX's protections: no DTD,
/// no entities (refused before parsing), UTF-8 only, nesting bounded by ``maxDepth``.
public enum TCXReader {
    /// The deepest element nesting accepted (real TCX, extensions included, stays under 12).
    public static let maxDepth = 64

    /// Parses `data`; a positioned trackpoint without `Time` or with bad values throws
    /// ``FormatError`` with its index among positioned trackpoints, a malformed document a `body`
    /// error.
    public static func read(_ data: Data) throws -> TCXDocument {
        try XMLSafety.refuseUnsafe(data, format: "TCX")
        let handler = TCXHandler()
        let parser = XMLSafety.parser(XMLSafety.blankingMisplacedDeclaration(data), delegate: handler)
        handler.parser = parser
        let ok = parser.parse()
        if let error = handler.error { throw error }
        guard ok else { throw FormatError.body("the TCX document is not well-formed XML", line: parser.lineNumber) }
        guard handler.sawRoot else {
            throw FormatError.body("the document is not TCX (no <TrainingCenterDatabase> element)")
        }
        let notes = handler.notes?.trimmingCharacters(in: .whitespacesAndNewlines)
        return TCXDocument(
            points: handler.points, sport: handler.sport, notes: notes?.isEmpty == false ? notes : nil)
    }

    /// API.md's mapping of the `Sport` attribute.
    public static func activity(sport: String?) -> Activity {
        switch sport {
        case "Running": .run
        case "Biking": .ride
        default: .other
        }
    }

    /// True when the first element of `data` (after any XML declaration, comments and blanks) is
    /// `TrainingCenterDatabase`, with or without a prefix.
    public static func looksLikeTCX(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        var rest = head[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            // Skip the declaration, comments (which may hold tags) and other markup before the root.
            let close = rest.hasPrefix("!--") ? "-->" : ">"
            guard rest.hasPrefix("?") || rest.hasPrefix("!") else {
                let name = rest.prefix { !" \t\r\n>/".contains($0) }
                return name.split(separator: ":").last == "TrainingCenterDatabase"
            }
            guard let end = rest.range(of: close) else { return false }
            rest = rest[end.upperBound...]
        }
        return false
    }
}
