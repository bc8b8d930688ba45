/// One best effort of a route: the fastest stretch of exactly one standard distance.
///
/// The times are kept exact (as interpolated); API.md reports `elapsed_s`, `start_t` and `end_t`
/// rounded to the millisecond — ``elapsedRounded``, ``startTRounded``, ``endTRounded`` — and
/// compares efforts (records, ranks, ties) by the rounded elapsed time.
public struct BestEffort: Sendable, Hashable, Codable {
    /// The distance's name, e.g. `5k`.
    public var distance: String
    /// The distance in metres.
    public var distanceMetres: Double
    /// `endT − startT`, seconds, unrounded.
    public var elapsed: Double
    /// When the stretch's start was passed (Unix seconds, interpolated, unrounded).
    public var startT: Double
    /// When the stretch's end was passed (Unix seconds, interpolated, unrounded).
    public var endT: Double

    /// An effort with these values.
    public init(distance: String, distanceMetres: Double, elapsed: Double, startT: Double, endT: Double) {
        self.distance = distance
        self.distanceMetres = distanceMetres
        self.elapsed = elapsed
        self.startT = startT
        self.endT = endT
    }

    /// API.md's `elapsed_s`: ``elapsed`` to the millisecond; what efforts are compared by.
    public var elapsedRounded: Double { Self.roundedToMillisecond(elapsed) }
    /// API.md's `start_t`: ``startT`` to the millisecond.
    public var startTRounded: Double { Self.roundedToMillisecond(startT) }
    /// API.md's `end_t`: ``endT`` to the millisecond.
    public var endTRounded: Double { Self.roundedToMillisecond(endT) }

    /// `x` to three decimals, halves away from zero. Each value is rounded on its own, so
    /// `endTRounded − startTRounded` may differ from `elapsedRounded` by a millisecond.
    public static func roundedToMillisecond(_ x: Double) -> Double {
        (x * 1000).rounded(.toNearestOrAwayFromZero) / 1000
    }
}

/// API.md's best efforts ("Best efforts, records and the training log"): for each standard
/// distance `D` no longer than a route, the stretch `[x, x + D]` of its path passed in the least
/// time.
///
/// **Time along the path.** `d_0 = 0`, `d_i = d_{i−1} +` the geodesic length of segment `i`
/// (summed as `distance_m` is, so `d_n` is the route's `distance_m` bit for bit), `t_i` the
/// points' times. Inside a segment with `d_k < x < d_{k+1}` the position `x` is passed at
/// `t_k + (x − d_k)/(d_{k+1} − d_k) · (t_{k+1} − t_k)`. At a position held by several points
/// (a pause: segments of length 0) a stretch *starting* there starts at the latest of their
/// times, one *ending* there ends at the earliest — so a pause inside a stretch counts, one at
/// its ends does not.
///
/// **Why two pointers suffice.** Between consecutive breakpoints (positions where `x` or
/// `x + D` is some `d_i`) both times are linear in `x`, so the elapsed time is too; at the
/// breakpoints the start time takes its right-hand limit and the end time its left-hand limit,
/// so a breakpoint is never worse than the open interval next to it. The least elapsed time is
/// therefore reached at a start `x = d_i` (with `d_i + D ≤ d_n`) or an end `x + D = d_j` (with
/// `d_j − D ≥ 0`). Both families are visited in increasing order, so one pointer per family
/// finds the other end of each stretch: O(n) per distance, no allocation.
///
/// **Ties.** Candidates are compared by elapsed time *rounded to the millisecond* — what API.md
/// reports and ranks by — and, on equal rounded time, by the earlier exact start time, then the
/// smaller `x`. Comparing rounded values makes stretches that are equal in exact arithmetic
/// (e.g. any window inside a stretch run at constant speed) tie reliably instead of being
/// decided by the last bit of a floating-point interpolation, so the earliest of them wins as
/// the rule says, whatever the summation noise of another implementation. The reported
/// `elapsed_s` is the same either way (rounding is monotone); only which of several stretches
/// within a millisecond of each other is reported can differ from an exact comparison.
public enum BestEfforts {
    /// The best efforts of a route whose kept points, in order, are `points`: one per standard
    /// distance of `activity` no longer than the route, shortest first.
    ///
    /// Needs at least two points; `drive` and `other` have none.
    public static func compute(points: [TrackPoint], activity: Activity) -> [BestEffort] {
        let standard = BestEffortDistance.standard(for: activity)
        guard points.count > 1, !standard.isEmpty else { return [] }
        return compute(distances: cumulativeDistances(of: points), times: points.map(\.t), standard: standard)
    }

    /// The same from precomputed arrays: `distances[i]` the path length from the first point to
    /// point `i` (non-decreasing, `distances[0] == 0`; see ``cumulativeDistances(of:)``) and
    /// `times[i]` its time (non-decreasing, as kept points' times are).
    public static func compute(distances: [Double], times: [Double], activity: Activity) -> [BestEffort] {
        compute(distances: distances, times: times, standard: BestEffortDistance.standard(for: activity))
    }

    /// The best effort of one distance over precomputed arrays (as for
    /// ``compute(distances:times:activity:)``), or nil when the route is shorter than it.
    public static func best(
        for distance: BestEffortDistance, distances: [Double], times: [Double]
    ) -> BestEffort? {
        precondition(distances.count == times.count, "one distance per time")
        return distances.withUnsafeBufferPointer { d in
            times.withUnsafeBufferPointer { t in best(for: distance, d, t) }
        }
    }

    /// The two arrays the rule runs on, built as the kept points arrive in chunks (a stored
    /// route is read bucket by bucket): distance along the route and time, per point. The
    /// distances are summed as ``cumulativeDistances(of:)`` sums them.
    public struct Path: Sendable {
        /// Path length from the first point to each point, metres.
        public private(set) var distances: [Double] = []
        /// Each point's time, Unix seconds.
        public private(set) var times: [Double] = []
        private var last: Coordinate?
        private var total = 0.0

        /// An empty path with room for `capacity` points.
        public init(capacity: Int = 0) {
            distances.reserveCapacity(capacity)
            times.reserveCapacity(capacity)
        }

        /// Adds the next kept points, in order.
        public mutating func append(contentsOf points: some Sequence<TrackPoint>) {
            for p in points {
                let c = p.coordinate
                if let last { total += Geodesic.distance(from: last, to: c) }
                distances.append(total)
                times.append(p.t)
                last = c
            }
        }
    }

    /// Path length from the first point to each point, summed in the order and with the function
    /// `StatsAccumulator` uses for `distance_m`, so the last value equals it bit for bit.
    public static func cumulativeDistances(of points: [TrackPoint]) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(points.count)
        var total = 0.0
        var previous: Coordinate?
        for p in points {
            let c = p.coordinate
            if let previous { total += Geodesic.distance(from: previous, to: c) }
            result.append(total)
            previous = c
        }
        return result
    }

    static func compute(distances: [Double], times: [Double], standard: [BestEffortDistance]) -> [BestEffort] {
        precondition(distances.count == times.count, "one distance per time")
        return distances.withUnsafeBufferPointer { d in
            times.withUnsafeBufferPointer { t in
                var efforts: [BestEffort] = []
                for distance in standard {
                    // Increasing distances: once one is longer than the route, all the rest are.
                    guard let effort = best(for: distance, d, t) else { break }
                    efforts.append(effort)
                }
                return efforts
            }
        }
    }

    /// The two-pointer pass for one distance (see the type's documentation).
    static func best(
        for distance: BestEffortDistance, _ d: UnsafeBufferPointer<Double>, _ t: UnsafeBufferPointer<Double>
    ) -> BestEffort? {
        let length = distance.metres
        guard let n = d.indices.last, length > 0, d[0] + length <= d[n] else { return nil }

        // The best so far; `units` is the elapsed time in whole milliseconds (the comparison key).
        var bestUnits = Double.infinity
        var bestStart = 0.0
        var bestEnd = 0.0
        var bestX = 0.0
        func consider(_ x: Double, _ start: Double, _ end: Double) {
            let units = ((end - start) * 1000).rounded(.toNearestOrAwayFromZero)
            if units < bestUnits || (units == bestUnits && (start < bestStart || (start == bestStart && x < bestX))) {
                bestUnits = units
                bestStart = start
                bestEnd = end
                bestX = x
            }
        }
        // The time `x` is passed inside segment k (d[k] < x < d[k + 1]); API.md's formula, in its order.
        func interpolate(_ x: Double, _ k: Int) -> Double {
            t[k] + (x - d[k]) / (d[k + 1] - d[k]) * (t[k + 1] - t[k])
        }

        // Stretches starting at a point: x = d[i], ending at y = x + D.
        var e = 0  // the first index with d[e] >= y; y only grows, so e only moves forward
        var i = 0
        while i <= n {
            // A start at a shared position takes its latest time: the group's last point.
            while i < n && d[i + 1] == d[i] { i += 1 }
            let x = d[i]
            let y = x + length
            guard y <= d[n] else { break }
            while d[e] < y { e += 1 }
            // At a shared position the end takes the earliest time: e is the group's first point.
            // Otherwise d[e − 1] < y < d[e] (e > 0, as d[0] <= x < y).
            consider(x, t[i], d[e] == y ? t[e] : interpolate(y, e - 1))
            i += 1
        }

        // Stretches ending at a point: y = d[j], starting at x = y − D.
        var s = 0  // the last index with d[s] <= x; x only grows, so s only moves forward
        var j = 0
        while j <= n {
            let y = d[j]
            let x = y - length
            if x >= d[0] {
                while s < n && d[s + 1] <= x { s += 1 }
                // s is the last point at x when one is there (the latest time); otherwise
                // d[s] < x < d[s + 1] (s < n, as x < y <= d[n]).
                consider(x, d[s] == x ? t[s] : interpolate(x, s), t[j])
            }
            // An end at a shared position takes its earliest time: j was the group's first point.
            j += 1
            while j <= n && d[j] == d[j - 1] { j += 1 }
        }

        return BestEffort(
            distance: distance.name, distanceMetres: length, elapsed: bestEnd - bestStart, startT: bestStart,
            endT: bestEnd)
    }
}
