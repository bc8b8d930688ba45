/// A route as a group sees it: its id, its name and its value of the metric (nil when `null`).
public struct GroupMember: Sendable, Hashable, Codable {
    /// Route id.
    public var id: String
    /// Route name (the first tie-breaker of the ranking).
    public var name: String
    /// The metric's value, nil when the route has none (it then stays out of the stats).
    public var value: Double?

    /// A member with a value already taken from its stats.
    public init(id: String, name: String, value: Double?) {
        self.id = id
        self.name = name
        self.value = value
    }

    /// A member whose value is `metric` of `stats`.
    public init(id: String, name: String, stats: RouteStats, metric: GroupMetric) {
        self.init(id: id, name: name, value: metric.value(of: stats))
    }
}

/// One line of a ranking: `{"route","name","value","rank"}` in API.md (`id` is `route`).
public struct RankedItem: Sendable, Hashable, Codable {
    /// Route (or group) id.
    public var id: String
    /// Its name.
    public var name: String
    /// Its value of the metric.
    public var value: Double
    /// Competition rank, 1-based: equal values share a rank and the next rank skips (1, 1, 3).
    public var rank: Int

    /// A ranked item.
    public init(id: String, name: String, value: Double, rank: Int) {
        self.id = id
        self.name = name
        self.value = value
        self.rank = rank
    }
}

/// The rankings of API.md's groups, compare and similar.
public enum Ranking {
    /// The members that have a value, best first, with competition ranks (1, 1, 3).
    ///
    /// Best is lowest unless `higherIsBetter`. Equal values are listed by name, then id, both in
    /// code-point order (UTF-8 bytes compare in code-point order; Swift's `<` on `String` uses
    /// canonical equivalence instead, which is not what API.md's "code point" means). Members
    /// without a value are left out; so is a NaN, which no stored stats should hold.
    public static func rank(_ members: [GroupMember], higherIsBetter: Bool) -> [RankedItem] {
        let valued = members.compactMap { m -> (GroupMember, Double)? in
            guard let v = m.value, !v.isNaN else { return nil }
            return (m, v)
        }
        let sorted = valued.sorted { x, y in
            if x.1 != y.1 { return higherIsBetter ? x.1 > y.1 : x.1 < y.1 }
            return codePointOrder(x.0, y.0)
        }
        var items: [RankedItem] = []
        items.reserveCapacity(sorted.count)
        for (i, (m, v)) in sorted.enumerated() {
            let rank = i > 0 && items[i - 1].value == v ? items[i - 1].rank : i + 1
            items.append(RankedItem(id: m.id, name: m.name, value: v, rank: rank))
        }
        return items
    }

    /// Ids ordered best first for `compare`'s group ranking: the members with a value as
    /// ``rank(_:higherIsBetter:)`` orders them, then those without one, by name, then id.
    public static func order(_ members: [GroupMember], higherIsBetter: Bool) -> [String] {
        let ranked = rank(members, higherIsBetter: higherIsBetter).map(\.id)
        let rest = members.filter { m in m.value.map(\.isNaN) ?? true }.sorted(by: codePointOrder)
        return ranked + rest.map(\.id)
    }

    /// `a` before `b` by name, then id, in code-point order.
    public static func codePointOrder(_ a: GroupMember, _ b: GroupMember) -> Bool {
        if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// Mean and sample variance of a list of values, computed so as to match numpy/scipy to ~1e-15.
///
/// The mean is a compensated (Neumaier) sum over n; the variance is the corrected two-pass
/// formula (Σ(x − m)² − (Σ(x − m))²/n) / (n − 1), whose second term removes the first-order
/// effect of the mean's rounding. One-pass formulas (Σx² − n·m²) lose every digit when the
/// spread is small against the mean, e.g. durations of ~3600 s that differ by milliseconds.
public struct SampleMoments: Sendable, Hashable {
    /// Number of values.
    public var count: Int
    /// The mean; nil without values.
    public var mean: Double?
    /// The sample variance (n − 1); nil under 2 values.
    public var variance: Double?

    /// Moments already known (e.g. kept from a ``GroupStatistics``).
    public init(count: Int, mean: Double?, variance: Double?) {
        self.count = count
        self.mean = mean
        self.variance = variance
    }

    /// The moments of `values`.
    public init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else { return }
        let n = Double(values.count)
        let m = Self.sum(values) / n
        mean = m
        guard values.count >= 2 else { return }
        var squares = 0.0
        var deviations = 0.0
        for x in values {
            let d = x - m
            squares += d * d
            deviations += d
        }
        variance = max(0, (squares - deviations * deviations / n) / (n - 1))
    }

    /// Neumaier's compensated sum: the error does not grow with the number of values.
    static func sum(_ values: [Double]) -> Double {
        var s = 0.0
        var c = 0.0
        for x in values {
            let t = s + x
            c += abs(s) >= abs(x) ? (s - t) + x : (x - t) + s
            s = t
        }
        return s + c
    }
}

/// API.md's group stats for one metric: count, mean, median, min, max, stddev and the ranking.
///
/// `total_distance_m` (the sum over every visible route, nulls included) is left to the caller:
/// it needs the routes' stats, not the metric's values.
public struct GroupStatistics: Sendable, Hashable {
    /// Members with a value.
    public var count: Int
    /// Mean of the values; nil without values.
    public var mean: Double?
    /// Middle value; the mean of the two middle ones for an even count; nil without values.
    public var median: Double?
    /// Lowest value; nil without values.
    public var min: Double?
    /// Highest value; nil without values.
    public var max: Double?
    /// Sample standard deviation (n − 1); nil under 2 values.
    public var stddev: Double?
    /// Sample variance (n − 1); nil under 2 values. Kept for Welch's test.
    public var variance: Double?
    /// The members with a value, best first (see ``Ranking/rank(_:higherIsBetter:)``).
    public var ranking: [RankedItem]
    /// The values in member order (the input of Welch's test).
    public var values: [Double]

    /// The statistics of `members`; members whose value is nil are left out of all of them.
    public init(members: [GroupMember], higherIsBetter: Bool) {
        values = members.compactMap { m in m.value.flatMap { $0.isNaN ? nil : $0 } }
        ranking = Ranking.rank(members, higherIsBetter: higherIsBetter)
        let moments = SampleMoments(values)
        count = values.count
        mean = moments.mean
        variance = moments.variance
        stddev = moments.variance.map { $0.squareRoot() }
        let sorted = values.sorted()
        min = sorted.first
        max = sorted.last
        if sorted.isEmpty {
            median = nil
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// The statistics of `members` for `metric` (its direction decides the ranking).
    public init(members: [GroupMember], metric: GroupMetric) {
        self.init(members: members, higherIsBetter: metric.higherIsBetter)
    }
}
