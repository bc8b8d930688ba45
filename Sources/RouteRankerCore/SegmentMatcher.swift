/// A segment as the matcher needs it: its points, their geodesic length, and the path resampled
/// every 10 m (as for `similar`). Build it once and match many routes against it.
public struct SegmentPath: Sendable, Hashable {
    /// The segment's points, in its direction.
    public let points: [Coordinate]
    /// The resampled path the Fréchet distance is taken on.
    public let resampled: ResampledPath
    /// The sum of the geodesic lengths between consecutive points, metres.
    public let lengthM: Double

    /// The segment through `points` (at least one, or start and end are undefined).
    public init(points: [Coordinate]) {
        var resampler = PathResampler()
        resampler.add(contentsOf: points)
        self.points = points
        resampled = resampler.path
        lengthM = resampler.lengthM
    }

    /// The first point.
    public var start: Coordinate { points[0] }
    /// The last point.
    public var end: Coordinate { points[points.count - 1] }
}

/// One pass of a route along a segment: API.md's effort, in the route's kept-point indices.
public struct SegmentEffort: Sendable, Hashable {
    /// The index of the start point `s` among the route's kept points.
    public var startIndex: Int
    /// The index of the end point `e`.
    public var endIndex: Int
    /// `t(e) − t(s)`, seconds.
    public var elapsedS: Double
    /// `t(s)`, Unix seconds.
    public var startT: Double
    /// The discrete Fréchet distance between the route's path from `s` to `e` and the segment's.
    public var frechetM: Double

    /// An effort; no validation.
    public init(startIndex: Int, endIndex: Int, elapsedS: Double, startT: Double, frechetM: Double) {
        self.startIndex = startIndex
        self.endIndex = endIndex
        self.elapsedS = elapsedS
        self.startT = startT
        self.frechetM = frechetM
    }
}

/// API.md's matching rule for segments, exactly, so that two implementations agree:
///
/// - A *start point* is, in each maximal run of consecutive points within 25 m of the segment's
///   start, the point closest to it (the earliest on a tie); *end points* likewise for its end.
/// - A start point `s` and the first end point `e` after it (a larger index) form a candidate;
///   where several start points share one `e`, only the latest is kept.
/// - A candidate is an effort when the discrete Fréchet distance between the route's path from
///   `s` to `e` and the segment's path, both resampled every 10 m, is at most 25 m.
///
/// Cost: candidate spans never overlap (between a kept `s` and its `e` there is no other end
/// point), so the resampling is linear in the route; each Fréchet search is the bounded one of
/// `DiscreteFrechet` (a band of a few cells at 25 m, capped at `cellLimit` cells a pair).
public enum SegmentMatcher {
    /// How near a route must come to the segment's ends, and how far its path may stray, metres.
    public static let radiusM = 25.0

    /// The Fréchet cells one candidate may scan before its paths are thinned (see
    /// `DiscreteFrechet`); exact for every pair of a 100 km segment with a route along it.
    public static let cellLimit = DiscreteFrechet.defaultCellLimit

    /// The efforts of a route whose kept points are `points` (in order) on `segment`, in route order.
    public static func efforts(of points: [TrackPoint], on segment: SegmentPath) -> [SegmentEffort] {
        guard !points.isEmpty, !segment.points.isEmpty else { return [] }
        let coordinates = points.map(\.coordinate)
        let starts = candidates(coordinates, near: segment.start)
        let ends = candidates(coordinates, near: segment.end)
        var efforts: [SegmentEffort] = []
        for (s, e) in pairs(starts: starts, ends: ends) {
            let path = ResampledPath.resample(coordinates[s...e])
            guard
                let frechet = DiscreteFrechet.distance(
                    path, segment.resampled, bound: radiusM, cellLimit: cellLimit)
            else { continue }
            efforts.append(
                SegmentEffort(
                    startIndex: s, endIndex: e, elapsedS: points[e].t - points[s].t, startT: points[s].t,
                    frechetM: frechet))
        }
        return efforts
    }

    /// In each maximal run of consecutive points within `radius` of `target`, the index of the
    /// point closest to it (the earliest on a tie), in order.
    public static func candidates(_ points: [Coordinate], near target: Coordinate, radius: Double = radiusM)
        -> [Int]
    {
        var found: [Int] = []
        var best: (index: Int, distance: Double)?
        for (i, point) in points.enumerated() {
            let d = Geodesic.distance(from: point, to: target)
            if d <= radius {
                // Strictly closer only: on a tie the earlier point stays.
                if best == nil || d < best!.distance { best = (i, d) }
            } else if let run = best {
                found.append(run.index)
                best = nil
            }
        }
        if let run = best { found.append(run.index) }
        return found
    }

    /// Each start paired with the first end after it; where several starts share an end, the
    /// latest of them. Both inputs ascending; the output ascending, spans disjoint.
    public static func pairs(starts: [Int], ends: [Int]) -> [(start: Int, end: Int)] {
        var result: [(start: Int, end: Int)] = []
        var e = 0
        for (k, s) in starts.enumerated() {
            while e < ends.count && ends[e] <= s { e += 1 }
            guard e < ends.count else { break }
            // A later start with the same first end replaces this one.
            if k + 1 < starts.count && starts[k + 1] < ends[e] { continue }
            result.append((s, ends[e]))
        }
        return result
    }
}
