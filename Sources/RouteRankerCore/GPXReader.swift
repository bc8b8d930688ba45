import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a GPX document holds for RouteRanker.
public struct GPXDocument: Sendable, Hashable {
    /// `trk/name`, else `metadata/name` (GPX 1.1), else the top-level `name` (GPX 1.0).
    public var name: String?
    /// Every `trkpt` of every `trkseg` of every `trk`, in document order; the `rtept`s when
    /// there is no `trkpt`. Not sorted: use ``TrackPoint/sortedByTime(_:)`` before ingest.
    public var points: [TrackPoint]
    /// The `wpt`s: text from `name`, else `desc`, else `cmt`; `t` nil without `<time>`.
    public var annotations: [Annotation]
}

/// Reads GPX 1.0 and 1.1 (`application/gpx+xml`).
///
/// Hostile input cannot blow up or hang it: a document with a DOCTYPE or an entity
/// declaration is refused before parsing (so no entity expansion happens), external entities
/// are never loaded, nesting deeper than ``maxDepth`` stops the parse, and UTF-16/32 documents
/// (whose bytes would hide a DOCTYPE from the check) are refused.
public enum GPXReader {
    /// The deepest element nesting accepted (real GPX, extensions included, stays under 10).
    public static let maxDepth = 64

    /// Parses `data`; a bad point throws ``FormatError`` with its index (n-th point read) and
    /// source line, a malformed document a `body` error.
    public static func read(_ data: Data) throws -> GPXDocument {
        try XMLSafety.refuseUnsafe(data, format: "GPX")
        let handler = GPXHandler()
        let parser = XMLSafety.parser(data, delegate: handler)
        handler.parser = parser
        let ok = parser.parse()
        if let error = handler.error { throw error }
        guard ok else {
            throw FormatError.body("the GPX document is not well-formed XML", line: parser.lineNumber)
        }
        guard handler.sawRoot else { throw FormatError.body("the document is not GPX (no <gpx> element)") }
        let usesTracks = !handler.trackPoints.isEmpty
        let raw = usesTracks ? handler.trackPoints : handler.routePoints
        let points = try raw.enumerated().map { try $0.element.point(index: $0.offset) }
        let annotations = try handler.waypoints.enumerated().map { try $0.element.annotation(index: $0.offset) }
        return GPXDocument(
            name: handler.trackName ?? handler.metadataName ?? handler.topName, points: points,
            annotations: annotations)
    }
}

/// A point or waypoint as read, before validation.
struct RawGPXPoint {
    var lat: String?
    var lon: String?
    var ele: String?
    var time: String?
    var name: String?
    var desc: String?
    var cmt: String?
    var line: Int

    func point(index: Int) throws -> TrackPoint {
        let (la, lo) = try position { .point(index, key: $0, $1, line: line) }
        var e: Double?
        if let ele = ele?.trimmingCharacters(in: .whitespacesAndNewlines), !ele.isEmpty {
            guard let v = DecimalNumbers.parse(ele) else {
                throw FormatError.point(index, key: "ele", "ele must be a number", line: line)
            }
            e = v
        }
        guard let time else { throw FormatError.point(index, key: "time", "time is required", line: line) }
        guard let t = RFC3339.parse(time) else {
            throw FormatError.point(index, key: "time", "time is not an ISO 8601 date and time", line: line)
        }
        return try PointValidation.point(
            lat: la, lon: lo, t: t, ele: e, acc: nil, index: index, timeKey: "time", line: line)
    }

    func annotation(index: Int) throws -> Annotation {
        let (la, lo) = try position { .annotation(index, key: $0, $1, line: line) }
        var t: Double?
        if let time {
            guard let v = RFC3339.parse(time) else {
                throw FormatError.annotation(index, key: "time", "time is not an ISO 8601 date and time", line: line)
            }
            t = v
        }
        // A file's text is cleaned, not refused (`TextRules.cleaned`): a line break in a `desc`
        // must not fail the whole upload.
        let text = [name, desc, cmt].lazy.compactMap { TextRules.cleaned($0) }.first ?? ""
        return try PointValidation.annotation(
            lat: la, lon: lo, t: t, text: text, index: index, timeKey: "time", line: line)
    }

    private func position(_ fail: (String, String) -> FormatError) throws -> (Double, Double) {
        guard let lat, let la = DecimalNumbers.parse(lat.trimmingCharacters(in: .whitespaces)) else {
            throw fail("lat", "lat must be a number")
        }
        guard let lon, let lo = DecimalNumbers.parse(lon.trimmingCharacters(in: .whitespaces)) else {
            throw fail("lon", "lon must be a number")
        }
        return (la, lo)
    }
}

/// The SAX side: keeps the element path and collects what `GPXReader` needs.
private final class GPXHandler: NSObject, XMLParserDelegate {
    weak var parser: XMLParser?
    var error: FormatError?
    var sawRoot = false
    var path: [String] = []
    var text = ""
    var current: RawGPXPoint?
    var trackPoints: [RawGPXPoint] = []
    var routePoints: [RawGPXPoint] = []
    var waypoints: [RawGPXPoint] = []
    var trackName: String?
    var metadataName: String?
    var topName: String?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard path.count < GPXReader.maxDepth else {
            fail(.body("GPX nesting is deeper than \(GPXReader.maxDepth) elements", line: parser.lineNumber))
            return
        }
        if path.isEmpty {
            guard name == "gpx" else { return fail(.body("the document is not GPX (no <gpx> element)")) }
            sawRoot = true
        }
        let placed = isPoint(name, under: path.last ?? "", depth: path.count + 1)
        path.append(name)
        text = ""
        if placed {
            current = RawGPXPoint(lat: attributes["lat"], lon: attributes["lon"], line: parser.lineNumber)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Only leaf values matter; cap what a long text node can make us hold.
        if text.utf8.count < 4096 { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if text.utf8.count < 4096 { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            path.removeLast()
            text = ""
        }
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        let grand = path.count >= 3 ? path[path.count - 3] : ""
        if let p = current, isPoint(name, under: parent, depth: path.count) {
            switch name {
            case "trkpt": trackPoints.append(p)
            case "rtept": routePoints.append(p)
            default: waypoints.append(p)
            }
            current = nil
        } else if current != nil && isPoint(parent, under: grand, depth: path.count - 1) {
            switch name {
            case "ele": current?.ele = text
            case "time": current?.time = text
            case "name": current?.name = text
            case "desc": current?.desc = text
            case "cmt": current?.cmt = text
            default: break
            }
        } else if name == "name" {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else { return }
            if parent == "trk" && grand == "gpx" && trackName == nil { trackName = value }
            if parent == "metadata" && grand == "gpx" && metadataName == nil { metadataName = value }
            if parent == "gpx" && path.count == 2 && topName == nil { topName = value }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil { error = .body("the GPX document is not well-formed XML", line: parser.lineNumber) }
    }

    /// Points count only in their place (`depth` is theirs, the root being 1): gpx/trk/trkseg/trkpt,
    /// gpx/rte/rtept, gpx/wpt — not look-alikes inside extensions.
    private func isPoint(_ name: String, under parent: String, depth: Int) -> Bool {
        switch name {
        case "trkpt": parent == "trkseg" && depth == 4
        case "rtept": parent == "rte" && depth == 3
        case "wpt": parent == "gpx" && depth == 2
        default: false
        }
    }

    private func fail(_ e: FormatError) {
        if error == nil { error = e }
        parser?.abortParsing()
    }
}
