import Foundation
import Hummingbird
import RouteRankerModels

/// A segment's leaderboard and one person's efforts on it: reads of stored efforts, filtered by
/// what the caller can see (`SegmentBoards`), ranked and paginated.
struct SegmentBoardsController: Sendable {
    let auth: Authenticator
    let boards: SegmentBoards

    /// `GET /v1/segments/{id}/leaderboard`: each visible person's best effort, fastest first.
    func leaderboard(_ request: Request, _ context: AppRequestContext) async throws -> Page<LeaderboardItem> {
        let user = try await auth.user(request)
        let segment = try await boards.segment(try context.parameters.require("id"))
        let list = "leaderboard:\(segment.id)"
        let page = try PageRequest(request, list: list, shape: .leaderboard)
        let best = EffortRanking.best(try await boards.visibleEfforts(on: segment.id, for: user))
        let ranks = EffortRanking.ranks(best.map(\.effort))
        let rows = zip(best, ranks).map { (effort: $0.effort, attempts: $0.attempts, rank: $1) }
        let sliced = page.page(
            of: rows, list: list, key: { EffortRanking.key($0.effort, ids: [$0.effort.owner]) },
            isAfter: EffortRanking.isAfter)
        let people = try await boards.people(sliced.items.map(\.effort.owner))
        let items = sliced.items.map { row in
            LeaderboardItem(
                rank: row.rank,
                user: people[row.effort.owner] ?? FriendView(id: row.effort.owner, name: row.effort.owner),
                route: row.effort.route, elapsedS: row.effort.elapsedS,
                avgSpeedMps: segment.lengthM / row.effort.elapsedS,
                startedAt: Date(timeIntervalSince1970: row.effort.startT), attempts: row.attempts)
        }
        return Page(items: items, next: sliced.next, total: rows.count)
    }

    /// `GET /v1/segments/{id}/efforts?user=`: every effort in `user`'s routes (default: mine) that
    /// I can see, fastest first.
    func efforts(_ request: Request, _ context: AppRequestContext) async throws -> Page<EffortView> {
        let user = try await auth.user(request)
        let segment = try await boards.segment(try context.parameters.require("id"))
        let person = request.query["user"] ?? user.id
        guard UserRules.isValidID(person) else {
            throw APIError.invalid("'user' must be a user id (1–64 of A–Z a–z 0–9 _ . -)", field: "user")
        }
        let list = "efforts:\(segment.id):\(person)"
        let page = try PageRequest(request, list: list, shape: .efforts)
        let sorted = EffortRanking.sorted(
            try await boards.visibleEfforts(on: segment.id, for: user, owner: person), ids: EffortRanking.effortIDs)
        let ranks = EffortRanking.ranks(sorted)
        let rows = zip(sorted, ranks).map { (effort: $0, rank: $1) }
        let sliced = page.page(
            of: rows, list: list, key: { EffortRanking.key($0.effort, ids: EffortRanking.effortIDs($0.effort)) },
            isAfter: EffortRanking.isAfter)
        let items = sliced.items.map { row in
            EffortView(
                route: row.effort.route, elapsedS: row.effort.elapsedS,
                avgSpeedMps: segment.lengthM / row.effort.elapsedS,
                startedAt: Date(timeIntervalSince1970: row.effort.startT), startIndex: row.effort.startIndex,
                endIndex: row.effort.endIndex, rank: row.rank)
        }
        return Page(items: items, next: sliced.next, total: rows.count)
    }
}
