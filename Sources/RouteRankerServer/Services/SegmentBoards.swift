import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Reads of stored efforts as one caller may see them: only efforts in routes the caller can read
/// (theirs, or shared with them: `RouteAccess`'s rule), and, of other people's, only those that
/// neither start nor end inside one of the route owner's privacy zones (zones as they are now).
struct SegmentBoards: Sendable {
    let segments: SegmentRepository
    let efforts: EffortRepository
    let access: RouteAccess
    let users: UserRepository

    /// The segment `id`, or `SegmentNotFound`.
    func segment(_ id: String) async throws -> SegmentRecord {
        guard let segment = try await segments.find(id: id) else { throw SegmentNotFound() }
        return segment
    }

    /// The efforts on `segment` that `user` may see, of `owner`'s routes only when given.
    func visibleEfforts(on segment: String, for user: UserRecord, owner: String? = nil) async throws
        -> [EffortRecord]
    {
        let stored = try await efforts.efforts(segment: segment, owner: owner)
        let readable = try await access.readableIDs(stored.map { ($0.route, $0.owner) }, by: user)
        let visible = stored.filter { readable.contains($0.route) }
        let others = Set(visible.map(\.owner)).subtracting([user.id])
        let privacy = try await users.privacy(of: Array(others))
        return visible.filter { effort in
            guard effort.owner != user.id, let zones = privacy[effort.owner]?.zones, !zones.isEmpty else {
                return true
            }
            return !PrivacyZone.hides(effort.start, zones: zones) && !PrivacyZone.hides(effort.end, zones: zones)
        }
    }

    /// The names of `ids` (a user that no longer exists keeps their id as name).
    func people(_ ids: [String]) async throws -> [String: FriendView] {
        let found = try await users.names(of: ids)
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Orders and ranks of the leaderboard and effort lists: fastest first, ties by start time, then by
/// the ids (code-point order), with competition ranks on `elapsed_s` (1, 1, 3).
enum EffortRanking {
    /// An effort's place in a list, as a keyset cursor holds it: `[elapsed_s, t(s), id…]`.
    static func key(_ effort: EffortRecord, ids: [String]) -> [String] {
        [String(effort.elapsedS), String(effort.startT)] + ids
    }

    /// Whether `key` comes after `position` in list order.
    static func isAfter(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == key.count, position.count >= 2, let pe = Double(position[0]),
            let pt = Double(position[1]), let ke = Double(key[0]), let kt = Double(key[1])
        else { return false }
        if pe != ke { return pe < ke }
        if pt != kt { return pt < kt }
        return CodePoint.precedes(Array(position.dropFirst(2)), Array(key.dropFirst(2)))
    }

    /// The efforts in list order (`ids` gives the tie-breaking ids of each).
    static func sorted(_ efforts: [EffortRecord], ids: (EffortRecord) -> [String]) -> [EffortRecord] {
        efforts.sorted { a, b in
            if a.elapsedS != b.elapsedS { return a.elapsedS < b.elapsedS }
            if a.startT != b.startT { return a.startT < b.startT }
            return CodePoint.precedes(ids(a), ids(b))
        }
    }

    /// Competition ranks of efforts already in list order.
    static func ranks(_ sorted: [EffortRecord]) -> [Int] {
        var ranks: [Int] = []
        ranks.reserveCapacity(sorted.count)
        for (i, effort) in sorted.enumerated() {
            ranks.append(i > 0 && sorted[i - 1].elapsedS == effort.elapsedS ? ranks[i - 1] : i + 1)
        }
        return ranks
    }

    /// Each person's best effort with their number of efforts, in leaderboard order.
    static func best(_ efforts: [EffortRecord]) -> [(effort: EffortRecord, attempts: Int)] {
        let byOwner = Dictionary(grouping: efforts, by: \.owner)
        let bests = byOwner.values.map { sorted($0, ids: effortIDs).first! }
        return sorted(bests, ids: { [$0.owner] }).map { ($0, byOwner[$0.owner]?.count ?? 0) }
    }

    /// The ids that order two efforts of one list with the same time and start: route, start index.
    static func effortIDs(_ effort: EffortRecord) -> [String] {
        [effort.route, String(format: "%012d", effort.startIndex)]
    }
}
