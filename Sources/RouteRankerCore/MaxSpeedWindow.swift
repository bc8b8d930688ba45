/// The incremental state behind `max_speed_mps`: the highest (path length / elapsed time) over
/// any run of consecutive points spanning at least 10 s.
///
/// Why a bounded window is exact: the average speed of a run i…j is the time-weighted mean of
/// the speeds of i…k and k…j for any point k between, so it is at most the larger of the two.
/// If both halves span ≥ 10 s they are runs too, and i…j never needs checking. Let k(j) be the
/// latest point with t(j) − t(k) ≥ 10. For i < k(j) with t(k) − t(i) ≥ 10, k splits i…j; so
/// the only starts to check for end j are the points i ≤ k(j) with t(k) − t(i) < 10 — at most
/// the points of a 10 s span. As t(k(j)) never decreases, a point that fails that test now
/// fails it for every later end too and is dropped for good. The window therefore holds the
/// points of two 10 s spans (before k, and the not-yet-feasible tail after it): ~20 points at
/// 1 Hz, however long the route and however irregular the sampling (a long gap just makes
/// k(j) the last point before the gap). Every comparison uses the same computed differences
/// (t(j) − t(k), t(k) − t(i)), so the pruning is consistent in floating point as well.
public struct MaxSpeedWindow: Sendable, Hashable, Codable {
    /// The minimal span of a run, seconds (a run of exactly 10 s counts).
    public static let minSpan = 10.0

    /// Times of the retained points (ascending).
    public private(set) var times: [Double] = []
    /// Cumulative path length from the route's first point, at each retained point.
    public private(set) var distances: [Double] = []
    /// The best speed so far (0 while the route spans less than 10 s).
    public private(set) var best = 0.0

    /// An empty window.
    public init() {}

    /// A window restored from the fields a previous one held.
    public init(restoring times: [Double], distances: [Double], best: Double) {
        self.times = times
        self.distances = distances
        self.best = best
    }

    /// Takes the next kept point (time `t`, cumulative distance `d`) and updates ``best``.
    public mutating func add(t: Double, d: Double) {
        times.append(t)
        distances.append(d)
        let j = times.count - 1
        // k: the latest point with t(j) − t(k) ≥ 10.
        var k = j - 1
        while k >= 0 && !(t - times[k] >= Self.minSpan) { k -= 1 }
        guard k >= 0 else { return }
        let tk = times[k]
        var i = k
        while i >= 0 && tk - times[i] < Self.minSpan {
            let speed = (d - distances[i]) / (t - times[i])
            if speed > best { best = speed }
            i -= 1
        }
        // Points 0...i can no longer start an unsplittable run.
        if i >= 0 {
            times.removeFirst(i + 1)
            distances.removeFirst(i + 1)
        }
    }
}
