import ArgumentParser
import Foundation
import RouteRankerCore

/// `routeranker stats FILE [--activity …]`: an offline tool for analysts. Reads a GPX, phone
/// text, NDJSON or JSON route, runs it through the same ingest filter and statistics as the
/// server, and prints the stats JSON (the ingest counts go to standard error).
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a route file's stats as JSON, computed exactly as the server does.")

    @Argument(help: "A .gpx, .txt (lat,lon,t[,ele]#…), .ndjson or .json route file.")
    var file: String

    @Option(help: "The activity whose parameters apply: walk, run, ride, drive or other.")
    var activity: String = Activity.other.rawValue

    func run() throws {
        let (route, activity) = try StatsFileError.read(file, activity: activity)
        let result = FileStats(file: route, activity: activity)
        print(try result.statsJSON())
        let counts =
            "accepted \(result.ingest.accepted), duplicates \(result.ingest.duplicates), "
            + "dropped \(result.ingest.dropped) (\(route.format.rawValue), activity \(activity.rawValue))\n"
        FileHandle.standardError.write(Data(counts.utf8))
    }
}

/// A file that cannot be read as a route: reported as `Error: <file>: <why>`, without usage help.
struct StatsFileError: Error, CustomStringConvertible {
    var description: String

    /// The route file at `path` and the activity named `activity`, as the offline commands take
    /// them (an unknown activity is a usage error; an unreadable file, this error).
    static func read(_ path: String, activity: String) throws -> (RouteFile, Activity) {
        guard let activity = Activity(rawValue: activity) else {
            throw ValidationError("--activity must be one of walk, run, ride, drive, other")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            return (try RouteFile.read(data, fileName: path), activity)
        } catch let error as FormatError {
            throw StatsFileError(description: "\(path): \(error.message)")
        }
    }
}
