import ArgumentParser
import Foundation
import RouteRankerCore
import RouteRankerServer

/// `routeranker import ARCHIVE.zip --dry-run`: what the server would do with each entry of an
/// archive, before uploading gigabytes: the same name rules, the same `activities.csv` reading,
/// the same limits and the same readers as the server's import job (`ImportWorker`). Whether a
/// file repeats one of your routes needs your routes, so duplicates show as `imported` here.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Show what an import of a zip archive (e.g. a Strava export) would do with each entry.")

    @Argument(help: "A zip archive of route files (.gpx, .fit, .tcx, each optionally .gz), e.g. Strava's export.")
    var archive: String

    @Flag(help: "Only show what would happen (the only mode: uploading is POST /v1/imports).")
    var dryRun = false

    func run() throws {
        guard dryRun else {
            throw ValidationError("only --dry-run is offered here; upload the archive with POST /v1/imports")
        }
        for line in try ImportPreview.lines(archive: archive) { print(line) }
    }
}
