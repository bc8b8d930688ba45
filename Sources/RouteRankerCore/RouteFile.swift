import Foundation

/// A route read from a file, for offline tools such as `routeranker stats FILE`.
public struct RouteFile: Sendable, Hashable {
    /// The formats a file can be in.
    public enum Format: String, Sendable, CaseIterable {
        case gpx, text, ndjson, json, fit, tcx
    }

    /// The format it was read as.
    public var format: Format
    /// The route name the file gives (GPX, or a JSON object's `name`; FIT and TCX: API.md's
    /// default name).
    public var name: String?
    /// The points in the order the ingest filter takes them: JSON and GPX sorted by `t`
    /// (stable), text and NDJSON as they appear.
    public var points: [TrackPoint]
    /// GPX waypoints or a JSON object's `annotations`.
    public var annotations: [Annotation]

    /// Reads `data`, choosing the format by `fileName`'s extension (`.gpx`, `.txt`,
    /// `.ndjson`/`.jsonl`, `.json`) or else by its first non-blank byte.
    public static func read(_ data: Data, fileName: String) throws -> RouteFile {
        switch detectFormat(data, fileName: fileName) {
        case .gpx:
            let doc = try GPXReader.read(data)
            return RouteFile(
                format: .gpx, name: doc.name, points: TrackPoint.sortedByTime(doc.points), annotations: doc.annotations)
        case .text:
            let points = try PointStreamReader.readAll(data, format: .text)
            return RouteFile(format: .text, name: nil, points: points, annotations: [])
        case .ndjson:
            let points = try PointStreamReader.readAll(data, format: .ndjson)
            return RouteFile(format: .ndjson, name: nil, points: points, annotations: [])
        case .json:
            return try readJSON(data)
        case .fit:
            let fit = try FITReader.read(data)
            return RouteFile(
                format: .fit, name: fit.defaultName, points: TrackPoint.sortedByTime(fit.points), annotations: [])
        case .tcx:
            let tcx = try TCXReader.read(data)
            return RouteFile(
                format: .tcx, name: tcx.defaultName, points: TrackPoint.sortedByTime(tcx.points), annotations: [])
        }
    }

    /// The format of `data`: FIT by its ".FIT" signature and TCX by its root element whatever the
    /// name, else by extension, else `<` GPX, `[` JSON, `{` JSON when the whole document is one
    /// object and NDJSON otherwise, anything else phone text.
    public static func detectFormat(_ data: Data, fileName: String) -> Format {
        if FITReader.looksLikeFIT(data) { return .fit }
        if TCXReader.looksLikeTCX(data) { return .tcx }
        switch fileName.split(separator: ".").last?.lowercased() {
        case "gpx", "xml": return .gpx
        case "txt", "text": return .text
        case "ndjson", "jsonl": return .ndjson
        case "json": return .json
        default: break
        }
        let first = data.first { ![32, 9, 10, 13, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"):
            return (try? JSONSerialization.jsonObject(with: data)) is [String: Any] ? .json : .ndjson
        default: return .text
        }
    }

    private static func readJSON(_ data: Data) throws -> RouteFile {
        let decoder = JSONDecoder()
        do {
            if data.first(where: { ![32, 9, 10, 13].contains($0) }) == UInt8(ascii: "[") {
                let points = try decoder.decode(ValidatedPoints.self, from: data).points
                return RouteFile(format: .json, name: nil, points: TrackPoint.sortedByTime(points), annotations: [])
            }
            let body = try decoder.decode(RouteJSONBody.self, from: data)
            return RouteFile(
                format: .json, name: body.name, points: body.sortedPoints,
                annotations: body.annotations?.annotations ?? [])
        } catch let e as FormatError {
            throw e
        } catch {
            throw FormatError.body("the file is not a JSON array of points or an object with \"points\"")
        }
    }
}

/// The offline statistics of a file: what `routeranker stats` prints.
public struct FileStats: Sendable, Hashable {
    /// The file as read.
    public var file: RouteFile
    /// What the ingest filter did with its points.
    public var ingest: IngestResult
    /// The stats of the kept points.
    public var stats: RouteStats

    /// Runs the points of `file` through a new route's ingest filter and statistics.
    public init(file: RouteFile, activity: Activity) {
        var acc = StatsAccumulator(activity: activity)
        self.file = file
        self.ingest = acc.ingest(file.points)
        self.stats = acc.stats
    }

    /// The stats as pretty-printed JSON: API.md's field names, explicit nulls, sorted keys (so
    /// that two runs diff cleanly; Foundation's encoder has no stable order otherwise).
    public func statsJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(stats), as: UTF8.self)
    }
}
