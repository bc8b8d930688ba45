import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Keeps the stored efforts in step with routes and segments (API.md "Segments and leaderboards":
/// efforts follow their routes at once). Matching is Core's `SegmentMatcher` on the route's kept
/// points; candidates always come from the geo indexes, never from a scan of every route:
///
/// - a finished (or changed) route is matched against the segments whose start lies in its grown
///   bounding box (`segments.start` `2dsphere`);
/// - a new segment against the finished routes whose grown box contains its start
///   (`route_areas.area` `2dsphere`).
///
/// Ordering makes a segment created while a route finishes meet it at least once: the route
/// records its area before it looks for segments, and the segment is stored before it looks for
/// routes. Storing an effort twice is harmless (ids are deterministic).
///
/// A route deleted while it is being matched leaves no effort behind: `RouteRemoval` removes the
/// route's area and efforts both before and after the route document, and each match looks again
/// after it has stored its efforts — a route match at the route document, a segment match at the
/// areas of the routes it stored efforts for — and removes what it stored for a route that went.
struct SegmentEfforts: Sendable {
    let segments: SegmentRepository
    let efforts: EffortRepository
    let areas: RouteAreaRepository
    let routes: RouteRepository
    let buckets: PointBuckets

    /// How many candidate routes a new segment reads and matches at once.
    static let concurrency = 4

    /// Matches a finished route against the segments near it and makes the result its stored
    /// efforts (replacing what an earlier match stored). A recording route holds none.
    func match(_ route: StoredRoute) async throws {
        guard route.state == .finished, let bbox = route.stats.bbox else {
            try await routeRemoved(route.id)
            return
        }
        let box = PaddedBox(bbox)
        try await areas.record(route: route.id, owner: route.owner, bbox: bbox, version: route.version)
        let circle = box.circle
        let near = try await segments.startingNear(circle.centre, radiusM: circle.radiusM).filter {
            box.contains($0.start) && box.contains($0.end)
        }
        var found: [EffortRecord] = []
        if !near.isEmpty {
            let points = try await keptPoints(of: route)
            for segment in near {
                try Task.checkCancellation()
                found += Self.efforts(of: route, points: points, on: segment, path: segment.path)
            }
        }
        try await efforts.replace(route: route.id, with: found)
        // Deleted meanwhile: its removal may have run before the efforts were stored.
        if try await !routes.exists(id: route.id) { try await routeRemoved(route.id) }
    }

    /// `match(_:)` unless this version of the route was matched already (a retried finish).
    func ensureMatched(_ route: StoredRoute) async throws {
        guard route.state == .finished else { return }
        if try await areas.isMatched(route: route.id, version: route.version) { return }
        try await match(route)
    }

    /// Removes a route's efforts and area (before the route itself goes, so that no effort of a
    /// deleted route is ever left to read).
    func routeRemoved(_ id: String) async throws {
        try await areas.delete(route: id)
        try await efforts.deleteAll(route: id)
    }

    /// Matches a new (already stored) segment against the finished routes that can reach it.
    func match(_ segment: SegmentRecord) async throws {
        let reaching = try await areas.reaching(segment.start).filter { $0.box.contains(segment.end) }
        guard !reaching.isEmpty else { return }
        let path = segment.path
        var all: [EffortRecord] = []
        // A few routes at a time: their documents and points are read while others match. Each
        // route by its `_id` (a point lookup): a long `_id $in` is slow on SecantusDB.
        try await withThrowingTaskGroup(of: [EffortRecord].self) { group in
            for (index, area) in reaching.enumerated() {
                if index >= Self.concurrency, let done = try await group.next() { all += done }
                group.addTask {
                    guard let route = try await routes.find(id: area.route), route.state == .finished else {
                        return []
                    }
                    let points = try await keptPoints(of: route)
                    return Self.efforts(of: route, points: points, on: segment, path: path)
                }
            }
            for try await done in group { all += done }
        }
        try await efforts.insert(all)
        // A route deleted meanwhile lost its area before its efforts were removed, and the efforts
        // just stored may have come after that removal: drop those of routes without an area now.
        let stored = Set(all.map(\.route))
        guard !stored.isEmpty else { return }
        let still = try await areas.existing(stored)
        for route in stored.subtracting(still) { try await efforts.deleteAll(route: route) }
    }

    /// Removes a deleted segment's efforts.
    func segmentRemoved(_ id: String) async throws {
        try await efforts.deleteAll(segment: id)
    }

    private func keptPoints(of route: StoredRoute) async throws -> [TrackPoint] {
        var points: [TrackPoint] = []
        points.reserveCapacity(route.pointCount)
        for try await chunk in buckets.read(route) { points += chunk }
        return points
    }

    private static func efforts(
        of route: StoredRoute, points: [TrackPoint], on segment: SegmentRecord, path: SegmentPath
    ) -> [EffortRecord] {
        SegmentMatcher.efforts(of: points, on: path).map { effort in
            EffortRecord(
                segment: segment.id, route: route.id, owner: route.owner, startIndex: effort.startIndex,
                endIndex: effort.endIndex, elapsedS: effort.elapsedS, startT: effort.startT,
                start: points[effort.startIndex].coordinate, end: points[effort.endIndex].coordinate)
        }
    }
}
