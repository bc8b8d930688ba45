import ArgumentParser
import Foundation
import RouteRankerCore

/// `routeranker segment-efforts FILE --segment SEGMENT.geojson`: the efforts of a local route file
/// on a segment, without a server, by the same Core code the server matches with (the file's
/// points go through the same ingest filter first, so indices are those of the kept points).
struct SegmentEffortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment-efforts",
        abstract: "Print a route file's efforts on a segment as JSON, matched exactly as the server does.")

    @Argument(help: "A .gpx, .fit, .tcx, .txt (lat,lon,t[,ele]#…), .ndjson or .json route file.")
    var file: String

    @Option(help: "The segment: a GeoJSON LineString, or a Feature or FeatureCollection holding one.")
    var segment: String

    @Option(help: "The activity whose ingest parameters apply: walk, run, ride, drive or other.")
    var activity: String = Activity.other.rawValue

    func run() throws {
        guard let activity = Activity(rawValue: activity) else {
            throw ValidationError("--activity must be one of walk, run, ride, drive, other")
        }
        let route: RouteFile
        let points: [Coordinate]
        do {
            route = try RouteFile.read(try Data(contentsOf: URL(fileURLWithPath: file)), fileName: file)
        } catch let error as FormatError {
            throw StatsFileError(description: "\(file): \(error.message)")
        }
        do {
            points = try SegmentGeoJSON.read(try Data(contentsOf: URL(fileURLWithPath: segment)))
        } catch let error as FormatError {
            throw StatsFileError(description: "\(segment): \(error.message)")
        }
        let path = SegmentPath(points: points)
        let kept = FileStats(file: route, activity: activity).ingest.kept
        let efforts = SegmentMatcher.efforts(of: kept, on: path)
        let ranked = efforts.sorted { ($0.elapsedS, $0.startT) < ($1.elapsedS, $1.startT) }
        var rank: [Int: Int] = [:]
        for (i, effort) in ranked.enumerated() {
            rank[effort.startIndex] =
                i > 0 && ranked[i - 1].elapsedS == effort.elapsedS ? rank[ranked[i - 1].startIndex]! : i + 1
        }
        let output = Output(
            lengthM: path.lengthM, points: kept.count,
            efforts: efforts.map { effort in
                Output.Effort(
                    startIndex: effort.startIndex, endIndex: effort.endIndex, elapsedS: effort.elapsedS,
                    avgSpeedMps: path.lengthM / effort.elapsedS,
                    startedAt: RFC3339.formatMilliseconds(effort.startT), frechetM: effort.frechetM,
                    rank: rank[effort.startIndex] ?? 0)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        print(String(decoding: try encoder.encode(output), as: UTF8.self))
    }

    /// `{"length_m","points","efforts":[…]}`: efforts in route order, `rank` by `elapsed_s`.
    struct Output: Encodable {
        struct Effort: Encodable {
            var startIndex: Int
            var endIndex: Int
            var elapsedS: Double
            var avgSpeedMps: Double
            var startedAt: String
            var frechetM: Double
            var rank: Int
        }
        var lengthM: Double
        var points: Int
        var efforts: [Effort]
    }
}
