import Foundation
import Hummingbird
import RouteRankerCore

/// Group statistics and the comparison of groups: computed from the stats stored with each route,
/// never from points. Only routes still visible to the group's owner count.
struct GroupStatsController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let groups: GroupsController

    struct Ranked: Encodable {
        var route: String
        var name: String
        var value: Double
        var rank: Int
    }

    /// One group's figures; in `compare` with the group's `id` and `name`.
    struct Stats: APIResponse {
        var id: String?
        var name: String?
        var metric: String
        var count: Int
        var mean: Double?
        var median: Double?
        var min: Double?
        var max: Double?
        var stddev: Double?
        var totalDistanceM: Double
        var ranking: [Ranked]

        func encode(to encoder: any Encoder) throws {
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

    struct Pair: Encodable {
        var a: String
        var b: String
        var meanDiff: Double?
        var ratio: Double?
        var t: Double?
        var df: Double?
        var pValue: Double?

        func encode(to encoder: any Encoder) throws {
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

    struct Comparison: APIResponse {
        var metric: String
        var groups: [Stats]
        var ranking: [String]
        var pairs: [Pair]
    }

    /// `GET /v1/groups/{id}/stats?metric=`.
    func stats(_ request: Request, _ context: AppRequestContext) async throws -> Stats {
        let user = try await auth.user(request)
        let group = try await groups.owned(context, by: user)
        let metric = try Self.metric(request)
        return try await figures(of: group, metric: metric, for: user).stats
    }

    /// `GET /v1/compare?groups=a,b[,…]&metric=`: each group's figures, the groups ranked by mean,
    /// and Welch's t-test for every pair in the order asked.
    func compare(_ request: Request, _ context: AppRequestContext) async throws -> Comparison {
        let user = try await auth.user(request)
        let raw = request.uri.queryParameters["groups"].map(String.init) ?? ""
        let ids = raw.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (2...50).contains(ids.count), Set(ids).count == ids.count, !ids.contains("") else {
            throw APIError.invalid(
                "'groups' must list 2 to 50 distinct group ids, separated by commas", field: "groups")
        }
        let metric = try Self.metric(request)
        var all: [(stats: Stats, figures: GroupStatistics)] = []
        for id in ids {
            guard let group = try await groups.groups.find(id: id, owner: user.id) else {
                throw GroupsController.notFound
            }
            var figures = try await self.figures(of: group, metric: metric, for: user)
            figures.stats.id = group.id
            figures.stats.name = group.name
            all.append(figures)
        }
        let order = Ranking.order(
            all.map { GroupMember(id: $0.stats.id!, name: $0.stats.name!, value: $0.figures.mean) },
            higherIsBetter: metric.higherIsBetter)
        var pairs: [Pair] = []
        for i in all.indices {
            for j in all.indices where j > i {
                let comparison = PairComparison(all[i].figures, all[j].figures)
                pairs.append(
                    Pair(
                        a: ids[i], b: ids[j], meanDiff: comparison.meanDiff, ratio: comparison.ratio,
                        t: comparison.welch?.t, df: comparison.welch?.df, pValue: comparison.welch?.pValue))
            }
        }
        return Comparison(metric: metric.rawValue, groups: all.map(\.stats), ranking: order, pairs: pairs)
    }

    /// The figures of the group's routes still visible to `user`.
    private func figures(of group: GroupRecord, metric: GroupMetric, for user: UserRecord) async throws
        -> (stats: Stats, figures: GroupStatistics)
    {
        let visible = try await visibility.readableFigures(group.routes, by: user)
        let routes = group.routes.compactMap { visible[$0] }
        let figures = GroupStatistics(
            members: routes.map { GroupMember(id: $0.id, name: $0.name, value: $0.value(metric.rawValue)) },
            metric: metric)
        let stats = Stats(
            id: nil, name: nil, metric: metric.rawValue, count: figures.count, mean: figures.mean,
            median: figures.median, min: figures.min, max: figures.max, stddev: figures.stddev,
            totalDistanceM: routes.reduce(0) { $0 + ($1.value("distance_m") ?? 0) },
            ranking: figures.ranking.map { Ranked(route: $0.id, name: $0.name, value: $0.value, rank: $0.rank) })
        return (stats, figures)
    }

    private static func metric(_ request: Request) throws -> GroupMetric {
        guard let raw = request.uri.queryParameters["metric"].map(String.init) else { return .default }
        guard let metric = GroupMetric(rawValue: raw) else {
            let names = GroupMetric.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.invalid("'metric' must be one of \(names)", field: "metric")
        }
        return metric
    }
}
