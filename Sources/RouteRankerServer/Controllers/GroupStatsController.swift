import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Group statistics and the comparison of groups: computed from the stats stored with each route,
/// never from points. Only routes still visible to the group's owner count.
struct GroupStatsController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let groups: GroupRepository
    /// The comparison's chart is drawn as costly work of its reader.
    let costly: CostlyWork

    /// `GET /v1/groups/{id}/stats?metric=`.
    func stats(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<GroupFigures> {
        let user = try await auth.user(request)
        let group = try await groups.owned(try context.parameters.require("id"), by: user)
        let metric = try Self.metric(request)
        return JSONResponse(status: .ok, body: try await figures(of: group, metric: metric, for: user).stats)
    }

    /// `GET /v1/compare?groups=a,b[,…]&metric=`: each group's figures, the groups ranked by mean,
    /// and Welch's t-test for every pair in the order asked.
    func compare(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<Comparison> {
        let (_, ids, metric, all, order) = try await compared(request)
        var pairs: [GroupPair] = []
        for i in all.indices {
            for j in all.indices where j > i {
                let comparison = PairComparison(all[i].figures, all[j].figures)
                pairs.append(
                    GroupPair(
                        a: ids[i], b: ids[j], meanDiff: comparison.meanDiff, ratio: comparison.ratio,
                        t: comparison.welch?.t, df: comparison.welch?.df, pValue: comparison.welch?.pValue))
            }
        }
        return JSONResponse(
            status: .ok,
            body: Comparison(metric: metric.rawValue, groups: all.map(\.stats), ranking: order, pairs: pairs))
    }

    /// `GET /v1/compare.svg?groups=a,b[,…]&metric=`: the same comparison as a chart — each group
    /// in ranking order as dots over a box, its mean with the 95 % interval, and Welch's p-value
    /// between neighbours.
    func compareChart(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let (user, _, metric, all, order) = try await compared(request)
        let byID = Dictionary(all.map { ($0.group.id, $0) }, uniquingKeysWith: { first, _ in first })
        let groups = order.compactMap { byID[$0] }.map {
            CompareChart.Group(id: $0.group.id, name: $0.group.name, values: $0.figures.values)
        }
        let names = groups.map(\.name).joined(separator: ", ")
        let width = try PictureQuery.width(request)
        let svg = try await costly.run(user: user.id) {
            CompareChart.svg(
                groups: groups, metric: metric, width: Double(width),
                title: "\(names) compared by \(MetricScale(metric).title)")
        }
        return SVGResponse(svg: svg, etag: nil)
    }

    /// The groups of `?groups=` (each the caller's) with their figures on `?metric=`, and their
    /// ids best first.
    private func compared(_ request: Request) async throws -> (
        user: UserRecord, ids: [String], metric: GroupMetric,
        all: [(group: GroupRecord, stats: GroupFigures, figures: GroupStatistics)], order: [String]
    ) {
        let user = try await auth.user(request)
        let raw = request.query["groups"] ?? ""
        let ids = raw.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (2...50).contains(ids.count), Set(ids).count == ids.count, !ids.contains("") else {
            throw APIError.invalid(
                "'groups' must list 2 to 50 distinct group ids, separated by commas", field: "groups")
        }
        let metric = try Self.metric(request)
        var owned: [GroupRecord] = []
        for id in ids { owned.append(try await groups.owned(id, by: user)) }
        // Each route read once, however many groups hold it: 50 groups of the same 1,000 routes
        // read 50,000 route summaries before (8 s on the embedded database), 1,000 now.
        let distinct = Array(Set(owned.flatMap(\.routes)))
        let visible = try await access.readableFigures(distinct, by: user)
        var all: [(group: GroupRecord, stats: GroupFigures, figures: GroupStatistics)] = []
        for group in owned {
            var figures = Self.figures(of: group, metric: metric, visible: visible)
            figures.stats.id = group.id
            figures.stats.name = group.name
            all.append((group, figures.stats, figures.figures))
        }
        let order = Ranking.order(
            all.map { GroupMember(id: $0.group.id, name: $0.group.name, value: $0.figures.mean) },
            higherIsBetter: metric.higherIsBetter)
        return (user, ids, metric, all, order)
    }

    /// The figures of the group's routes still visible to `user`.
    private func figures(of group: GroupRecord, metric: GroupMetric, for user: UserRecord) async throws
        -> (stats: GroupFigures, figures: GroupStatistics)
    {
        Self.figures(of: group, metric: metric, visible: try await access.readableFigures(group.routes, by: user))
    }

    /// The figures of the group's routes among `visible` (the caller's readable routes, by id).
    private static func figures(of group: GroupRecord, metric: GroupMetric, visible: [String: RouteFigures])
        -> (stats: GroupFigures, figures: GroupStatistics)
    {
        let routes = group.routes.compactMap { visible[$0] }
        let figures = GroupStatistics(
            members: routes.map { GroupMember(id: $0.id, name: $0.name, value: $0.value(metric)) },
            metric: metric)
        let stats = GroupFigures(
            id: nil, name: nil, metric: metric.rawValue, count: figures.count, mean: figures.mean,
            median: figures.median, min: figures.min, max: figures.max, stddev: figures.stddev,
            totalDistanceM: routes.reduce(0) { $0 + ($1.value(.distanceM) ?? 0) },
            ranking: figures.ranking.map { RankedRoute(route: $0.id, name: $0.name, value: $0.value, rank: $0.rank) })
        return (stats, figures)
    }

    private static func metric(_ request: Request) throws -> GroupMetric {
        guard let raw = request.query["metric"] else { return .default }
        guard let metric = GroupMetric(rawValue: raw) else {
            let names = GroupMetric.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.invalid("'metric' must be one of \(names)", field: "metric")
        }
        return metric
    }
}
