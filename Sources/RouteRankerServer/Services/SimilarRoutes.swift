import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// "Same route, ranked": the routes visible to a reader that follow the same path in the same
/// direction as an anchor route. Used by `similar` and by groups made `similar_to` a route.
struct SimilarRoutes: Sendable {
    let routes: RouteRepository
    let access: RouteAccess
    let users: UserRepository
    let viewer: RouteViewer
    let paths: PathRepository
    /// The most Fréchet cells one request may scan over all its pairs: many long routes within a
    /// wide `max_m` get `422` instead of minutes of CPU (`AppConfiguration.similarCellBudget`).
    let cellBudget: Int

    static let defaultMaxM = 50.0
    /// The longest route `similar` compares: its path resampled every 10 m is at most 100,000
    /// samples, and a pair costs at most the bounded Fréchet's cell cap. Without a bound one
    /// request could resample a 150,000 km zig-zag into gigabytes and minutes of CPU.
    static let maxRouteLengthM = 1_000_000.0
    /// The most Fréchet cells one pair may scan before its paths are thinned (about 1.4 s of CPU
    /// for a pair that fills it twice); results stay within 10·k m of exact (see DiscreteFrechet).
    static let pairCellLimit = 10_000_000
    /// The most 10 m samples one request may read or resample over all its candidates' paths
    /// (20,000 km of routes): a sample costs about what a hundred Fréchet cells do (a direct
    /// geodesic when it is made, 16 bytes to read and decode when it is stored), so this keeps the
    /// paths' share of a request near a second of CPU.
    static let sampleBudget = 2_000_000

    /// One match: the route and its discrete Fréchet distance to the anchor.
    struct Match: Sendable {
        var route: StoredRoute
        var frechetM: Double
    }

    /// `max_m` in (0, 10000], default 50.
    static func validMaxM(_ value: Double?) throws -> Double {
        let maxM = value ?? defaultMaxM
        guard maxM.isFinite, maxM > 0, maxM <= 10_000 else {
            throw InvalidInput("'max_m' must be more than 0 and at most 10000", field: "max_m")
        }
        return maxM
    }

    /// What a Fréchet cell costs, in cells of the geodesic fast path (~20 ns in a release build).
    ///
    /// `Geodesic.distance` has a closed form for steps up to 1 km (~14 ns) and hands longer ones to
    /// Karney's algorithm (~670 ns, measured on the 2-core server: 48 times more). In the band a
    /// pair of similar paths scans, point distances spread evenly from 0 to `maxM`, so the share
    /// past 1 km is `(maxM − 1000)/maxM`: at `max_m=10000` a cell costs ~32 fast cells. Without
    /// this the bound counted a 664 km route at `max_m=10000` as 20 M cells and let it run for 7 s
    /// (issue 43 #7).
    static func cellWeight(maxM: Double) -> Double {
        let slowShare = max(0, (maxM - fastPathLimitM) / max(maxM, 1))
        return 1 + slowShare * (slowCellCost - 1)
    }

    /// The longest step `Geodesic.distance` computes in closed form (`GeodesicFastPath`).
    static let fastPathLimitM = 1_000.0
    /// A cell whose distance needs Karney's algorithm, in fast cells (670 ns against 14 ns, plus
    /// the ~6 ns the scan spends on every cell).
    static let slowCellCost = 34.0

    /// The least a comparison will cost, counted from route lengths: the 10 m samples of every
    /// path it reads (the anchor's and each candidate's) and the Fréchet cells of each pair,
    /// weighted by ``cellWeight(maxM:)`` (so `cells` is in fast cells, as `cellBudget` is).
    ///
    /// A pair of similar paths scans a band about `2·maxM/10 + 1` cells wide along both paths (see
    /// `DiscreteFrechet`), never more than the whole table, and at most twice the pair's cell cap.
    /// Paths that part early cost less, so this is the cost of the case the request is for —
    /// candidates that really follow the anchor — and the scan still stops at the budget if the
    /// band turns out wider (laps of a small loop).
    static func estimatedCost(anchorM: Double, candidatesM: [Double], maxM: Double) -> (samples: Int, cells: Int) {
        func samples(_ metres: Double) -> Double { (max(0, metres) / ResampledPath.spacing).rounded(.down) + 2 }
        let band = 2 * (maxM / ResampledPath.spacing).rounded(.up) + 1
        let n = samples(anchorM)
        var totalSamples = n
        var cells = 0.0
        for metres in candidatesM {
            let m = samples(metres)
            totalSamples += m
            cells += min(n * m, (n + m) * band, 2 * Double(pairCellLimit))
        }
        cells *= cellWeight(maxM: maxM)
        // Doubles, so that no sum of absurd lengths overflows before it is compared.
        return (totalSamples.clampedInt(in: 0...Int.max / 2), cells.clampedInt(in: 0...Int.max / 2))
    }

    /// Matches ranked by duration (ties share a rank and are listed by name, then id).
    static func ranked(_ matches: [Match]) -> [SimilarRoute] {
        let members = matches.map { GroupMember(id: $0.route.id, name: $0.route.name, value: $0.route.stats.durationS) }
        let byID = Dictionary(matches.map { ($0.route.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Ranking.rank(members, higherIsBetter: false).compactMap { ranked -> SimilarRoute? in
            guard let match = byID[ranked.id] else { return nil }
            return SimilarRoute(
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
    func matches(of anchor: StoredRoute, for user: UserRecord, maxM: Double) async throws -> [Match] {
        guard anchor.stats.distanceM <= Self.maxRouteLengthM else {
            throw RouteTooLongToCompare(limitM: Self.maxRouteLengthM)
        }
        var candidates: [(route: StoredRoute, lens: RouteViewer.Lens)] = []
        let anchorLens = try await viewer.lens(owner: anchor.owner, viewer: user.id)
        let anchorExtent = try await viewer.extent(of: anchor, lens: anchorLens)
        guard let start = anchorExtent.start, let end = anchorExtent.end else { return [] }

        let mine = try await routes.startingNear(start.coordinate, radiusM: maxM, owner: user.id)
        candidates += mine.map { ($0, .owner) }
        let shared = try await access.sharedRoutes(with: user)
        let privacy = try await users.privacy(of: shared.values.map(\.owner))
        candidates += shared.values.map { ($0, viewer.lens(privacy[$0.owner])) }
        if !candidates.contains(where: { $0.route.id == anchor.id }) { candidates.append((anchor, anchorLens)) }

        var survivors: [(route: StoredRoute, lens: RouteViewer.Lens)] = []
        for (route, lens) in candidates {
            let extent = try await viewer.extent(of: route, lens: lens)
            guard route.stats.distanceM <= Self.maxRouteLengthM, let s = extent.start, let e = extent.end,
                Geodesic.distance(from: s.coordinate, to: start.coordinate) <= maxM,
                Geodesic.distance(from: e.coordinate, to: end.coordinate) <= maxM
            else { continue }
            survivors.append((route, lens))
        }
        // Refused from the summaries alone, before a path is read: the outside probe's 891 km
        // route with 50 candidates spent half a minute resampling before the cell budget stopped it.
        let cost = Self.estimatedCost(
            anchorM: anchor.stats.distanceM, candidatesM: survivors.map(\.route.stats.distanceM), maxM: maxM)
        guard cost.samples <= Self.sampleBudget, cost.cells <= cellBudget else {
            throw ComparisonTooLarge(candidates: survivors.count)
        }
        let anchorPath = try await paths.path(of: anchor, lens: anchorLens)
        let found = try await paths.paths(of: survivors)
        var matches: [Match] = []
        // Raw cells; the budget is in fast cells. A pair may scan at most what is left of the
        // budget (it then thins its paths, see DiscreteFrechet), so no request passes it.
        let weight = Self.cellWeight(maxM: maxM)
        let budget = Double(cellBudget) / weight
        var scanned = 0
        for (route, _) in survivors {
            try Task.checkCancellation()
            let left = budget - Double(scanned)
            guard left >= 2 else { throw ComparisonTooLarge(candidates: survivors.count) }
            guard let path = found[route.id] else { continue }
            let pairLimit = (left / 2).clampedInt(in: 1...Self.pairCellLimit, rounding: .down)
            if let frechet = DiscreteFrechet.distance(
                anchorPath, path, bound: maxM, cellLimit: pairLimit, scanned: &scanned)
            {
                matches.append(Match(route: route, frechetM: frechet))
            }
        }
        return matches
    }
}

extension RouteStats.Endpoint {
    var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}

/// One item of `GET /v1/routes/{id}/similar`.
struct SimilarRoute: Encodable, Sendable {
    var route: String
    var name: String
    var owner: String
    var frechetM: Double
    var durationS: Double
    var rank: Int
}
