import Crypto
import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// One archive entry made a route, exactly as its upload would be: the same Core reader for its
/// format (GPX, FIT, TCX), the same name and activity rules, the same ingest filter and limits,
/// and everything a finished route gets (segment efforts, best efforts). Imported routes are
/// finished and shared with nobody.
struct ImportedRoutes: Sendable {
    let routes: RouteRepository
    let buckets: PointBuckets
    let efforts: SegmentEfforts
    let bestEfforts: BestEffortsKeeper
    let clock: WallClock

    /// What became of one file.
    enum Outcome: Equatable {
        case imported(route: String)
        case duplicate(route: String)
    }

    /// The route id of entry `index` of import `job`: fixed by the entry, so that an import that
    /// resumes after a crash finds the route it made before the crash instead of making another.
    static func routeID(job: String, index: Int) -> String {
        let digest = SHA256.hash(data: Data("import:\(job):\(index)".utf8))
        return digest.prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads `data` (already inflated) as a `format` upload and stores it as `owner`'s finished
    /// route `id`, unless one of `owner`'s routes has the same kept points' first `t`, last `t`
    /// and count. `name` and `activity` (from Strava's `activities.csv`) replace the file's own.
    /// Throws what the upload would answer for a bad file.
    func importFile(
        _ data: Data, format: RouteFile.Format, id: String, owner: String, name: String?, activity: Activity?
    ) async throws -> Outcome {
        let file = try Self.read(data, format: format)
        // Both names come from files (the archive's CSV, the entry): cleaned, not refused.
        let routeName = try RouteRules.name(TextRules.cleaned(name) ?? TextRules.cleaned(file.name))
        let routeActivity = try activity ?? RouteRules.activity(file.activity)
        var route = StoredRoute(
            new: RouteRecord(
                id: id, owner: owner, name: routeName, activity: routeActivity, state: .finished, createdAt: clock.now,
                annotations: [], accumulator: StatsAccumulator(activity: routeActivity), version: 0))
        // The fingerprint of the points the filter keeps, before anything is stored.
        var filter = StatsAccumulator(activity: routeActivity)
        _ = filter.ingest(file.points)
        if let first = filter.first, let last = filter.last {
            let fingerprint = "\(first.t):\(last.t):\(filter.count)"
            if let existing = try await routes.duplicate(of: fingerprint, owner: owner), existing != id {
                return .duplicate(route: existing)
            }
        }
        if let stored = try await routes.find(id: id), stored.owner == owner {
            return .imported(route: stored.id)  // made before a crash: the same entry
        }
        try RouteRules.annotations(existing: 0, adding: file.annotations.count)  // the upload's 413
        var ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
        try await ingest.add(file.points)
        ingest.annotate(file.annotations)
        do {
            route = try await ingest.commit(state: .finished)
        } catch is RouteAlreadyExists {
            return .imported(route: id)
        }
        try await efforts.match(route)
        try await bestEfforts.update(route)
        return .imported(route: id)
    }

    /// A file's points, name and activity as its upload reads them (no query parameters).
    static func read(_ data: Data, format: RouteFile.Format) throws -> (
        name: String?, activity: String?, points: [TrackPoint], annotations: [Annotation]
    ) {
        switch format {
        case .gpx:
            let gpx = try GPXReader.read(data)
            return (gpx.name, nil, TrackPoint.sortedByTime(gpx.points), gpx.annotations)
        case .fit:
            let fit = try FITReader.read(data)
            return (fit.defaultName, fit.activity.rawValue, TrackPoint.sortedByTime(fit.points), [])
        case .tcx:
            let tcx = try TCXReader.read(data)
            return (tcx.defaultName, tcx.activity.rawValue, TrackPoint.sortedByTime(tcx.points), [])
        default:
            throw InvalidInput("this file type cannot be imported", field: "body")
        }
    }
}
