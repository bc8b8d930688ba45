/// Group figures and comparisons as the API writes them; `routeranker compare` reads the same types.

/// One line of a group's ranking.
public struct RankedRoute: Codable, Sendable {
    public var route: String
    public var name: String
    public var value: Double
    public var rank: Int

    public init(route: String, name: String, value: Double, rank: Int) {
        self.route = route
        self.name = name
        self.value = value
        self.rank = rank
    }
}

/// One group's figures (`GET /v1/groups/{id}/stats`); in `compare` with the group's `id` and `name`.
public struct GroupFigures: Codable, Sendable {
    public var id: String?
    public var name: String?
    public var metric: String
    public var count: Int
    public var mean: Double?
    public var median: Double?
    public var min: Double?
    public var max: Double?
    public var stddev: Double?
    public var totalDistanceM: Double
    public var ranking: [RankedRoute]

    public init(
        id: String?, name: String?, metric: String, count: Int, mean: Double?, median: Double?, min: Double?,
        max: Double?, stddev: Double?, totalDistanceM: Double, ranking: [RankedRoute]
    ) {
        self.id = id
        self.name = name
        self.metric = metric
        self.count = count
        self.mean = mean
        self.median = median
        self.min = min
        self.max = max
        self.stddev = stddev
        self.totalDistanceM = totalDistanceM
        self.ranking = ranking
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encode(metric, forKey: .metric)
        try c.encode(count, forKey: .count)
        try c.encode(mean, forKey: .mean)  // explicit nulls: the shape never changes
        try c.encode(median, forKey: .median)
        try c.encode(min, forKey: .min)
        try c.encode(max, forKey: .max)
        try c.encode(stddev, forKey: .stddev)
        try c.encode(totalDistanceM, forKey: .totalDistanceM)
        try c.encode(ranking, forKey: .ranking)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, metric, count, mean, median, min, max, stddev, ranking
        case totalDistanceM = "total_distance_m"
    }
}

/// One pair of `compare`: the difference of the means and Welch's t-test.
public struct GroupPair: Codable, Sendable {
    public var a: String
    public var b: String
    public var meanDiff: Double?
    public var ratio: Double?
    public var t: Double?
    public var df: Double?
    public var pValue: Double?

    public init(a: String, b: String, meanDiff: Double?, ratio: Double?, t: Double?, df: Double?, pValue: Double?) {
        self.a = a
        self.b = b
        self.meanDiff = meanDiff
        self.ratio = ratio
        self.t = t
        self.df = df
        self.pValue = pValue
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(a, forKey: .a)
        try c.encode(b, forKey: .b)
        try c.encode(meanDiff, forKey: .meanDiff)
        try c.encode(ratio, forKey: .ratio)
        try c.encode(t, forKey: .t)
        try c.encode(df, forKey: .df)
        try c.encode(pValue, forKey: .pValue)
    }

    private enum CodingKeys: String, CodingKey {
        case a, b, t, df, ratio
        case meanDiff = "mean_diff"
        case pValue = "p_value"
    }
}

/// The answer of `GET /v1/compare`.
public struct Comparison: Codable, Sendable {
    public var metric: String
    public var groups: [GroupFigures]
    public var ranking: [String]
    public var pairs: [GroupPair]

    public init(metric: String, groups: [GroupFigures], ranking: [String], pairs: [GroupPair]) {
        self.metric = metric
        self.groups = groups
        self.ranking = ranking
        self.pairs = pairs
    }
}
