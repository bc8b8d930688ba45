import Foundation
import RouteRankerCore
import ZipArchive

/// What an import would do with each entry of an archive on disk, without a database: the
/// server's own rules (`ImportWorker`'s names, limits and readers, `ImportedRoutes.read`), for
/// `routeranker import --dry-run`. One line per entry, then the counts.
public enum ImportPreview {
    /// The lines to print for the archive at `path`; throws when it is not a zip.
    public static func lines(archive path: String) throws -> [String] {
        let listing = try ZipReader(source: try FileSource(path: path), maxEntryBytes: ImportWorker.maxCSVBytes)
            .entries()
        guard listing.count <= ImportWorker.maxEntries else {
            return ["the import would fail: the archive has more than \(ImportWorker.maxEntries) entries"]
        }
        let strava = ImportWorker.strava(in: listing, of: path)
        let reader = try ZipReader(source: try FileSource(path: path), maxEntryBytes: ImportWorker.maxEntryBytes)
        var lines: [String] = []
        var counts: [String: Int] = [:]
        var inflated: Int64 = 0
        do {
            while let entry = try ImportWorker.next(reader) {
                var outcome = "skipped"
                if case .route(let format, let gzipped) = ImportEntry.kind(ofName: entry.name), !entry.isDirectory {
                    do {
                        let bytes = try ImportWorker.readEntry(reader, gzipped: gzipped, inflated: &inflated)
                        let file = try ImportedRoutes.read(Data(bytes), format: format)
                        let named = strava?.entry(forPath: entry.name)
                        let name = named?.name ?? file.name ?? "Untitled"
                        let activity = named?.activity?.rawValue ?? file.activity ?? "other"
                        outcome = "imported (\(file.points.count) points, \"\(name)\", \(activity))"
                    } catch let failure as ImportWorker.JobFailure {
                        throw failure
                    } catch {
                        outcome = "failed: " + (ImportWorker.refusal(error) ?? "\(error)")
                    }
                }
                counts[String(outcome.prefix { $0 != " " && $0 != ":" }), default: 0] += 1
                lines.append("\(entry.name)\t\(outcome)")
            }
        } catch let failure as ImportWorker.JobFailure {
            lines.append("the import would fail: \(failure.message)")
        }
        let summary = ["imported", "failed", "skipped"].map { "\(counts[$0, default: 0]) \($0)" }.joined(
            separator: ", ")
        return lines + ["\(listing.count) entries: \(summary) (duplicates of your routes show as imported here)"]
    }
}
