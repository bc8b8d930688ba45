import Foundation
import Hummingbird
import Mongo
import RouteRankerCore

/// `GET /v1/routes/{id}/similar`: the routes visible to me that follow the same path in the same
/// direction, ranked by duration.
struct SimilarController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let routes: RouteRepository
    let shares: ShareRepository
    let users: UserRepository
    let viewer: RouteViewer
    let paths: PathRepository

    /// One match: the route and its discrete Fréchet distance to the anchor.
    struct Match: Sendable {
        var route: RouteRecord
        var frechetM: Double
    }

    struct Item: Encodable {
        var route: String
        var name: String
        var owner: String
        var frechetM: Double
        var durationS: Double
        var rank: Int
    }

    struct Result: APIResponse {
        var items: [Item]
    }

    static let defaultMaxM = 50.0

    /// `max_m` in (0, 10000], default 50.
    static func validMaxM(_ value: Double?) throws -> Double {
        let maxM = value ?? defaultMaxM
        guard maxM.isFinite, maxM > 0, maxM <= 10_000 else {
            throw APIError.invalid("'max_m' must be more than 0 and at most 10000", field: "max_m")
        }
        return maxM
    }

    func similar(_ request: Request, _ context: AppRequestContext) async throws -> Result {
        let user = try await auth.user(request)
        let route = try await visibility.readable(try context.parameters.require("id"), by: user)
        let raw = request.uri.queryParameters["max_m"].map(String.init)
        guard raw == nil || Double(raw!) != nil else {
            throw APIError.invalid("'max_m' must be a number", field: "max_m")
        }
        let maxM = try Self.validMaxM(raw.flatMap(Double.init))
        return Result(items: Self.ranked(try await matches(of: route, for: user, maxM: maxM)))
    }

    /// Matches ranked by duration (ties share a rank and are listed by name, then id).
    static func ranked(_ matches: [Match]) -> [Item] {
        let members = matches.map { GroupMember(id: $0.route.id, name: $0.route.name, value: $0.route.stats.durationS) }
        let byID = Dictionary(matches.map { ($0.route.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Ranking.rank(members, higherIsBetter: false).compactMap { ranked -> Item? in
            guard let match = byID[ranked.id] else { return nil }
            return Item(
                route: match.route.id, name: match.route.name, owner: match.route.owner, frechetM: match.frechetM,
                durationS: match.route.stats.durationS, rank: ranked.rank)
        }
    }

    /// The routes visible to `user` (theirs, and those shared with them, as they see them) whose
    /// start and end lie within `maxM` of the anchor's and whose resampled paths are within `maxM`
    /// in discrete Fréchet distance. The anchor itself is included.
    ///
    /// Candidates: mine from the `2dsphere` index on starts; shared ones by their visible start.
    /// Only the survivors of the start and end checks have their stored paths read.
    func matches(of anchor: RouteRecord, for user: UserRecord, maxM: Double) async throws -> [Match] {
        var candidates: [(route: RouteRecord, lens: RouteViewer.Lens)] = []
        let anchorLens = try await viewer.lens(owner: anchor.owner, viewer: user.id)
        let anchorExtent = try await viewer.extent(of: anchor, lens: anchorLens)
        guard let start = anchorExtent.start, let end = anchorExtent.end else { return [] }

        let padded = min((maxM * 1.01 + 10) / 6_371_008.8, Double.pi)
        let mine = try await routes.find(
            [
                "owner": .string(user.id),
                "start": [
                    "$geoWithin": ["$centerSphere": [[.double(start.lon), .double(start.lat)], .double(padded)]]
                ],
            ], sort: ["_id": 1], limit: 0)
        candidates += mine.map { ($0, .owner) }
        let shared = try await routes.find(ids: try await shares.routeIDs(sharedWith: user.id))
        let privacy = try await users.privacy(of: shared.values.map(\.owner))
        candidates += shared.values.map { ($0, viewer.lens(privacy[$0.owner])) }
        if !candidates.contains(where: { $0.route.id == anchor.id }) { candidates.append((anchor, anchorLens)) }

        var survivors: [(route: RouteRecord, lens: RouteViewer.Lens)] = []
        for (route, lens) in candidates {
            let extent = try await viewer.extent(of: route, lens: lens)
            guard let s = extent.start, let e = extent.end,
                Geodesic.distance(from: Self.coordinate(s), to: Self.coordinate(start)) <= maxM,
                Geodesic.distance(from: Self.coordinate(e), to: Self.coordinate(end)) <= maxM
            else { continue }
            survivors.append((route, lens))
        }
        let anchorPath = try await paths.path(of: anchor, lens: anchorLens)
        let found = try await paths.paths(of: survivors)
        var matches: [Match] = []
        for (route, _) in survivors {
            guard let path = found[route.id] else { continue }
            if let frechet = DiscreteFrechet.distance(anchorPath, path, bound: maxM) {
                matches.append(Match(route: route, frechetM: frechet))
            }
        }
        return matches
    }

    private static func coordinate(_ endpoint: RouteStats.Endpoint) -> Coordinate {
        Coordinate(lat: endpoint.lat, lon: endpoint.lon)
    }
}
