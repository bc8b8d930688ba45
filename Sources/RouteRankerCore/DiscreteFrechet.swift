/// The discrete Fréchet distance between two resampled paths, with geodesic point distances.
///
/// F(p, q) is the least, over monotone couplings of the two point sequences that start with
/// (p₀, q₀) and end with (pₙ₋₁, qₘ₋₁), of the largest distance between coupled points:
/// c(i, j) = max(d(pᵢ, qⱼ), min(c(i−1, j), c(i−1, j−1), c(i, j−1))). Direction matters: a path
/// and its reverse are far apart, because starts must be coupled with starts.
///
/// How the cost is bounded:
/// - Memory: two rows over the shorter path, O(min(n, m)).
/// - Time: a decision procedure against `bound`. A cell farther than `bound` is treated as
///   infinite (no coupling through it can end ≤ bound), and a cell none of whose three
///   predecessors is finite is skipped without computing its distance. Each row is scanned
///   only from the first finite cell of the previous row to just past its last finite cell or
///   of its own run, so the work is the reachable band, not n·m: for two paths that really are
///   similar the band is ~2·bound/10 + 1 cells wide (11 at the default 50 m), i.e. O((n + m)·
///   bound/10) distance evaluations. A row without a finite cell ends the search (nil), and so
///   do starts or ends farther apart than `bound`, before any table is built.
/// - Worst case: paths that stay within `bound` of each other everywhere (laps of a small
///   loop, or a large `bound`) fill the whole table. Scanned cells are counted against
///   `cellLimit` (default 50 M, ~1 s at the fast path's ~20 ns a cell). Past it the search
///   restarts on both paths thinned to every k-th point (and the last), k the least with
///   (n/k)·(m/k) ≤ `cellLimit`; that result is within 10·k m of the exact distance (a path and
///   its thinned self are at most 5·k m apart, and the Fréchet distance obeys the triangle
///   inequality). Exact for any pair up to ~7,000 points each (70 km), and far beyond for
///   similar paths.
public enum DiscreteFrechet {
    /// The default cap on scanned cells before the paths are thinned.
    public static let defaultCellLimit = 50_000_000

    /// The discrete Fréchet distance between `p` and `q` when it is at most `bound` metres;
    /// nil when it is larger or either path is empty. `bound` = ∞ gives the plain distance.
    public static func distance(
        _ p: ResampledPath, _ q: ResampledPath, bound: Double = .infinity, cellLimit: Int = defaultCellLimit
    ) -> Double? {
        var scanned = 0
        return distance(p, q, bound: bound, cellLimit: cellLimit, scanned: &scanned)
    }

    /// `distance(_:_:bound:cellLimit:)`, adding the cells it scanned (at most about twice
    /// `cellLimit`) to `scanned`: for callers that bound the total work of many comparisons.
    public static func distance(
        _ p: ResampledPath, _ q: ResampledPath, bound: Double, cellLimit: Int, scanned: inout Int
    ) -> Double? {
        guard !p.isEmpty, !q.isEmpty, bound >= 0 else { return nil }
        // Cheap exits first: the coupling must pair starts with starts and ends with ends.
        guard Geodesic.distance(from: p[0], to: q[0]) <= bound,
            Geodesic.distance(from: p[p.count - 1], to: q[q.count - 1]) <= bound
        else { return nil }
        // Rows run over the longer path, so the two rows have the shorter one's length.
        let (outer, inner) = p.count >= q.count ? (p, q) : (q, p)
        switch search(outer, inner, bound: bound, cellLimit: max(1, cellLimit), scanned: &scanned) {
        case .found(let d): return d
        case .beyondBound: return nil
        case .overLimit:
            let cells = Double(outer.count) * Double(inner.count)
            var k = (cells / Double(max(1, cellLimit))).squareRoot().clampedInt(in: 2...Int.max, rounding: .up)
            while (Double(outer.count) / Double(k)).rounded(.up) * (Double(inner.count) / Double(k)).rounded(.up)
                > Double(cellLimit)
            {
                k += 1
            }
            let thinned = search(thin(outer, k), thin(inner, k), bound: bound, cellLimit: .max, scanned: &scanned)
            if case .found(let d) = thinned { return d }
            return nil
        }
    }

    /// Whether `p` follows `q` within `maxDistance` metres: the distance if so, else nil.
    public static func isWithin(_ p: ResampledPath, _ q: ResampledPath, maxDistance: Double) -> Double? {
        distance(p, q, bound: maxDistance)
    }

    enum Outcome: Equatable {
        case found(Double)
        case beyondBound
        case overLimit
    }

    /// The banded dynamic programme; `inner` gives the row length. Adds the cells it scanned to
    /// `scanned`.
    static func search(
        _ outer: ResampledPath, _ inner: ResampledPath, bound: Double, cellLimit: Int, scanned: inout Int
    ) -> Outcome {
        let m = inner.count
        var prev = [Double](repeating: .infinity, count: m)
        var cur = [Double](repeating: .infinity, count: m)
        var cells = 0
        defer { scanned += cells }
        // Row 0: only leftward moves.
        var lo = 0
        var hi = -1
        var left = Double.infinity
        let p0 = outer[0]
        for j in 0..<m {
            let d = Geodesic.distance(from: p0, to: inner[j])
            cells += 1
            guard d <= bound else { break }
            left = j == 0 ? d : max(d, left)
            prev[j] = left
            hi = j
        }
        if hi < lo { return .beyondBound }
        for i in 1..<outer.count {
            let pi = outer[i]
            var newLo = -1
            var newHi = -1
            left = .infinity
            var j = lo
            while j < m {
                let up = j <= hi ? prev[j] : .infinity
                let diagonal = j > lo && j - 1 <= hi ? prev[j - 1] : .infinity
                let best = min(up, diagonal, left)
                cells += 1
                if best == .infinity {
                    // Past the previous row's finite cells with nothing coming from the left:
                    // every later cell of this row is unreachable too.
                    if j > hi { break }
                    cur[j] = .infinity
                } else {
                    let d = Geodesic.distance(from: pi, to: inner[j])
                    if d <= bound {
                        cur[j] = max(d, best)
                        if newLo < 0 { newLo = j }
                        newHi = j
                    } else {
                        cur[j] = .infinity
                    }
                }
                left = cur[j]
                j += 1
            }
            if newLo < 0 { return .beyondBound }
            if cells > cellLimit { return .overLimit }
            swap(&prev, &cur)
            lo = newLo
            hi = newHi
        }
        return hi == m - 1 && prev[m - 1] <= bound ? .found(prev[m - 1]) : .beyondBound
    }

    /// Every k-th point and the last one.
    static func thin(_ path: ResampledPath, _ k: Int) -> ResampledPath {
        var lat = stride(from: 0, to: path.count, by: k).map { path.lat[$0] }
        var lon = stride(from: 0, to: path.count, by: k).map { path.lon[$0] }
        if (path.count - 1) % k != 0 {
            lat.append(path.lat[path.count - 1])
            lon.append(path.lon[path.count - 1])
        }
        return ResampledPath(lat: lat, lon: lon)!
    }
}
