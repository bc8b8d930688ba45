import ArgumentParser
import Foundation
import RouteRankerCore

/// `routeranker best-efforts FILE [--activity run]`: a route file's best efforts, computed as the
/// server computes them: the same reader, the same ingest filter (so the same kept points) and
/// Core's `BestEfforts` rule.
struct BestEffortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "best-efforts",
        abstract: "Print a route file's best efforts (the fastest 400 m, 1 km, 5 km, … inside it).")

    @Argument(help: "A .gpx, .fit, .tcx, .txt (lat,lon,t[,ele]#…), .ndjson or .json route file.")
    var file: String

    @Option(help: "The activity whose distances and filter apply: walk, run, ride, drive or other.")
    var activity: String = Activity.run.rawValue

    @Flag(help: "Print JSON (the server's item fields) instead of a table.")
    var json = false

    func run() throws {
        let (route, activity) = try StatsFileError.read(file, activity: activity)
        let kept = FileStats(file: route, activity: activity).ingest.kept
        let efforts = BestEfforts.compute(points: kept, activity: activity)
        print(json ? try Self.json(efforts) : Self.table(efforts, activity: activity))
    }

    /// One row a distance: name, metres, elapsed (h:mm:ss.sss), pace or speed, start and end.
    static func table(_ efforts: [BestEffort], activity: Activity) -> String {
        guard !efforts.isEmpty else {
            return BestEffortDistance.standard(for: activity).isEmpty
                ? "\(activity.rawValue) has no standard distances"
                : "no best efforts: the route is shorter than the shortest distance"
        }
        let rateTitle = activity == .ride ? "speed" : "pace"
        var lines = [
            pad("distance", 14) + pad("metres", 11, left: true) + pad("elapsed", 14, left: true)
                + pad(rateTitle, 12, left: true) + "  " + pad("start", 26) + "end"
        ]
        for effort in efforts {
            let elapsed = effort.elapsedRounded
            let rate =
                activity == .ride
                ? HumanFormat.fixed(effort.distanceMetres / elapsed * 3.6, decimals: 1) + " km/h"
                : HumanFormat.pace(elapsed / (effort.distanceMetres / 1000))
            lines.append(
                pad(effort.distance, 14) + pad(HumanFormat.fixed(effort.distanceMetres, decimals: 3), 11, left: true)
                    + pad(clock(elapsed), 14, left: true) + pad(rate, 12, left: true) + "  "
                    + pad(RFC3339.formatMilliseconds(effort.startTRounded), 26)
                    + RFC3339.formatMilliseconds(effort.endTRounded))
        }
        return lines.joined(separator: "\n")
    }

    /// The efforts as `{"items": [...]}` with the server's fields (no `pr_rank`: one file alone).
    static func json(_ efforts: [BestEffort]) throws -> String {
        let items = efforts.map {
            Item(
                distance: $0.distance, distanceM: $0.distanceMetres, elapsedS: $0.elapsedRounded,
                startT: $0.startTRounded, endT: $0.endTRounded)
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(["items": items]), as: UTF8.self)
    }

    private struct Item: Encodable {
        var distance: String
        var distanceM: Double
        var elapsedS: Double
        var startT: Double
        var endT: Double
    }

    /// `h:mm:ss.sss`, or `m:ss.sss` under an hour.
    static func clock(_ seconds: Double) -> String {
        let millis = (seconds * 1000).clampedInt64(in: .min ... .max)
        let h = millis / 3_600_000
        let m = millis / 60_000 % 60
        let s = Double(millis % 60_000) / 1000
        let sText = (s < 10 ? "0" : "") + HumanFormat.fixed(s, decimals: 3)
        return h > 0 ? "\(h):\(m < 10 ? "0" : "")\(m):\(sText)" : "\(m):\(sText)"
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? fill + text : text + fill
    }
}
