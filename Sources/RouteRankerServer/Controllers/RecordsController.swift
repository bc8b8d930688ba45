import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Best efforts, records, progressions and the friends' ranking per distance (API.md "Best
/// efforts, records and the training log"): indexed reads of the efforts `BestEffortsKeeper`
/// stores, never a scan of points. Whose routes count is the one visibility rule: a route's
/// efforts, and a ranking over mine and those shared with me, both through `RouteAccess`.
struct RecordsController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let bestEfforts: BestEffortRepository
    let users: UserRepository

    /// `GET /v1/routes/{id}/best_efforts`: the route's efforts, shortest first, each with its
    /// `pr_rank` among the owner's efforts of that distance and activity.
    func route(_ request: Request, _ context: AppRequestContext) async throws -> Items<RouteBestEffort> {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        let route = reading.route
        guard route.state == .finished else { return Items(items: []) }
        let efforts = try await bestEfforts.efforts(route: route.id, owner: route.owner)
            .filter { $0.activity == route.activity }
        var items: [RouteBestEffort] = []
        for effort in efforts {
            // The owner's three fastest: this effort's place among them, if any.
            let podium = try await bestEfforts.fastest(
                owner: route.owner, activity: route.activity, distance: effort.distance, limit: 3)
            let rank = podium.firstIndex { $0.route == effort.route }.map { $0 + 1 }
            items.append(
                RouteBestEffort(
                    distance: effort.distance, distanceM: effort.distanceM, elapsedS: effort.elapsedS,
                    startT: effort.startT, endT: effort.endT, prRank: rank))
        }
        return Items(items: items)
    }

    /// `GET /v1/users/me/records?activity=`: my fastest effort of each distance I hold.
    func records(_ request: Request, _ context: AppRequestContext) async throws -> MyRecords {
        let user = try await auth.user(request)
        let activity = try Self.activity(request)
        var items: [MyRecord] = []
        for distance in BestEffortDistance.standard(for: activity) {
            guard
                let best = try await bestEfforts.fastest(
                    owner: user.id, activity: activity, distance: distance.name, limit: 1
                ).first
            else { continue }
            items.append(
                MyRecord(
                    distance: best.distance, distanceM: best.distanceM, elapsedS: best.elapsedS, route: best.route,
                    startT: best.startT, achievedAt: best.achievedAt))
        }
        return MyRecords(activity: activity.rawValue, items: items)
    }

    /// `GET /v1/users/me/records/{distance}?activity=`: every effort of mine that was faster than
    /// all my earlier ones, oldest first.
    func progression(_ request: Request, _ context: AppRequestContext) async throws -> Items<ProgressionItem> {
        let user = try await auth.user(request)
        let activity = try Self.activity(request)
        let distance = try Self.distance(context, activity: activity)
        var fastest: Int64?
        var items: [ProgressionItem] = []
        for effort in try await bestEfforts.history(owner: user.id, activity: activity, distance: distance.name) {
            guard fastest.map({ effort.elapsedMS < $0 }) ?? true else { continue }
            fastest = effort.elapsedMS
            items.append(
                ProgressionItem(
                    elapsedS: effort.elapsedS, route: effort.route, startT: effort.startT,
                    achievedAt: effort.achievedAt))
        }
        return Items(items: items)
    }

    /// `GET /v1/records/{distance}?activity=`: each person's best effort among the routes I can
    /// see (mine, and those shared with me), fastest first, with competition ranks.
    func ranking(_ request: Request, _ context: AppRequestContext) async throws -> Page<RankingItem> {
        let user = try await auth.user(request)
        let activity = try Self.activity(request)
        let distance = try Self.distance(context, activity: activity)
        let list = "records:\(activity.rawValue):\(distance.name)"
        let page = try PageRequest(request, list: list, shape: .recordRanking)
        let shared = try await access.sharedRoutes(with: user)
        let owners = Set(shared.values.map(\.owner)).union([user.id])
        let candidates = try await bestEfforts.efforts(
            owners: owners.sorted(), activity: activity, distance: distance.name)
        // Fastest first from the index: the first effort of each person is their best.
        var seen: Set<String> = []
        let best = candidates.filter { effort in
            guard effort.owner == user.id || shared[effort.route] != nil else { return false }
            return seen.insert(effort.owner).inserted
        }
        var rows: [(effort: BestEffortRecord, rank: Int)] = []
        for (i, effort) in best.enumerated() {
            let tied = i > 0 && best[i - 1].elapsedMS == effort.elapsedMS
            rows.append((effort, tied ? rows[i - 1].rank : i + 1))
        }
        let sliced = page.page(of: rows, list: list, key: { Self.key($0.effort) }, isAfter: Self.isAfter)
        let people = Dictionary(
            try await users.names(of: sliced.items.map(\.effort.owner)).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let items = sliced.items.map { row in
            RankingItem(
                rank: row.rank,
                user: people[row.effort.owner] ?? FriendView(id: row.effort.owner, name: row.effort.owner),
                route: row.effort.route, elapsedS: row.effort.elapsedS, achievedAt: row.effort.achievedAt)
        }
        return Page(items: items, next: sliced.next, total: rows.count)
    }

    /// `?activity=`: one of the five names, `run` when absent.
    static func activity(_ request: Request) throws -> Activity {
        guard let raw = request.query["activity"] else { return .run }
        return try RouteRules.activity(raw)
    }

    /// `{distance}`: a distance the activity has, else `404`.
    static func distance(_ context: AppRequestContext, activity: Activity) throws -> BestEffortDistance {
        let name = try context.parameters.require("distance")
        guard let distance = BestEffortDistance.named(name, activity: activity) else {
            throw APIError.notFound("'\(name)' is not a distance of \(activity.rawValue) records")
        }
        return distance
    }

    /// A ranking row's keyset position: elapsed and start in milliseconds, then the route id.
    static func key(_ effort: BestEffortRecord) -> [String] {
        [String(effort.elapsedMS), String(effort.startMS), effort.route]
    }

    /// Whether `key` comes after `position` in ranking order.
    static func isAfter(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == 3, key.count == 3, let pe = Int64(position[0]), let ps = Int64(position[1]),
            let ke = Int64(key[0]), let ks = Int64(key[1])
        else { return false }
        return (pe, ps) < (ke, ks) || ((pe, ps) == (ke, ks) && CodePoint.precedes(position[2], key[2]))
    }
}

/// `{"items"}` without paging, for lists that are short by nature.
struct Items<Item: Encodable & Sendable>: APIResponse {
    var items: [Item]
}

/// One item of `GET /v1/routes/{id}/best_efforts`.
struct RouteBestEffort: Encodable, Sendable {
    var distance: String
    var distanceM: Double
    var elapsedS: Double
    var startT: Double
    var endT: Double
    var prRank: Int?

    private enum CodingKeys: String, CodingKey { case distance, distanceM, elapsedS, startT, endT, prRank }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distance, forKey: .distance)
        try container.encode(distanceM, forKey: .distanceM)
        try container.encode(elapsedS, forKey: .elapsedS)
        try container.encode(startT, forKey: .startT)
        try container.encode(endT, forKey: .endT)
        try container.encode(prRank, forKey: .prRank)  // an explicit null when not on the podium
    }
}

/// `GET /v1/users/me/records`.
struct MyRecords: APIResponse {
    var activity: String
    var items: [MyRecord]
}

/// One record: my fastest effort of one distance.
struct MyRecord: Encodable, Sendable {
    var distance: String
    var distanceM: Double
    var elapsedS: Double
    var route: String
    var startT: Double
    var achievedAt: Date
}

/// One step of a progression.
struct ProgressionItem: Encodable, Sendable {
    var elapsedS: Double
    var route: String
    var startT: Double
    var achievedAt: Date
}

/// One row of `GET /v1/records/{distance}`.
struct RankingItem: Encodable, Sendable {
    var rank: Int
    var user: FriendView
    var route: String
    var elapsedS: Double
    var achievedAt: Date
}
