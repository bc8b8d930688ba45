/// The formats of `GET /v1/routes/{id}/points?format=`.
public enum DownloadFormat: String, Sendable, CaseIterable, Codable {
    case json, ndjson, text, gpx, geojson, csv

    /// The response's `Content-Type`.
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .ndjson: "application/x-ndjson"
        case .text: "text/plain"
        case .gpx: "application/gpx+xml"
        case .geojson: "application/geo+json"
        case .csv: "text/csv"
        }
    }
}

/// One writer for every download format, so the server streams any of them the same way:
/// send ``header()``, then ``chunk(_:)`` for each bucket of (visible) points in order, then
/// ``footer()``. Concatenated, the pieces are the whole document.
public struct DownloadWriter: Sendable {
    /// The format being written.
    public let format: DownloadFormat
    private let id: String
    private let gpx: GPXWriter
    private var geojson: GeoJSONWriter
    private var text = PhoneTextWriter()
    private var wroteJSONPoint = false

    /// A writer for route `id` named `name`; `annotations` (already filtered for the caller)
    /// go into GPX as waypoints. JSON is `{"id","points":[…]}`.
    public init(format: DownloadFormat, id: String, name: String?, annotations: [Annotation] = []) {
        self.format = format
        self.id = id
        self.gpx = GPXWriter(name: name, annotations: annotations)
        self.geojson = GeoJSONWriter(name: name)
    }

    /// What comes before the first point.
    public func header() -> String {
        switch format {
        case .json: "{\"id\":\(JSONPoints.string(id)),\"points\":["
        case .ndjson, .text: ""
        case .gpx: gpx.header()
        case .geojson: geojson.header()
        case .csv: CSVPointWriter.header
        }
    }

    /// The next points.
    public mutating func chunk(_ points: some Sequence<TrackPoint>) -> String {
        switch format {
        case .json:
            var out: [UInt8] = []
            chunk(points, into: &out)
            return String(decoding: out, as: UTF8.self)
        case .ndjson: return NDJSONPointWriter.lines(points)
        case .text: return text.chunk(points)
        case .gpx: return gpx.chunk(points)
        case .geojson: return geojson.chunk(points)
        case .csv: return CSVPointWriter.rows(points)
        }
    }

    /// Appends ``chunk(_:)`` of the next points to `out` as UTF-8 bytes; JSON, NDJSON and GPX are
    /// written as bytes from the start (the hot downloads), the other formats copied from their
    /// text.
    public mutating func chunk(_ points: some Sequence<TrackPoint>, into out: inout [UInt8]) {
        if format == .ndjson { return NDJSONPointWriter.append(points, to: &out) }
        if format == .gpx { return gpx.chunk(points, into: &out) }
        guard format == .json else { return out.append(contentsOf: chunk(points).utf8) }
        out.reserveCapacity(out.count + points.underestimatedCount * 80)
        for p in points {
            if wroteJSONPoint { out.append(UInt8(ascii: ",")) }
            wroteJSONPoint = true
            JSONPoints.append(p, to: &out)
        }
    }

    /// What comes after the last point.
    public func footer() -> String {
        switch format {
        case .json: "]}"
        case .ndjson, .text, .csv: ""
        case .gpx: gpx.footer()
        case .geojson: geojson.footer()
        }
    }

    /// The whole document at once.
    public static func render(
        _ format: DownloadFormat, id: String, name: String?, annotations: [Annotation] = [], points: [TrackPoint]
    ) -> String {
        var w = DownloadWriter(format: format, id: id, name: name, annotations: annotations)
        let body = w.chunk(points)
        return w.header() + body + w.footer()
    }
}
