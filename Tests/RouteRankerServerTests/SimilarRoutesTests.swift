import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import RouteRankerCore
import Testing

@testable import RouteRankerServer

@Suite struct SimilarRoutesTests {
    typealias F = GroupFixture

    /// 1 km heading east: 100 points 10 m apart, one every 3 s (297 s).
    static let path = F.straight()

    /// `route → item` of a `similar` answer.
    static func byRoute(_ response: TestResponse) -> [String: JSONObject] {
        Dictionary(F.items(response).compactMap { item in (item["route"] as? String).map { ($0, item) } }) { a, _ in a }
    }

    @Test func samePathWithNoiseMatchesOthersDoNotAndMatchesAreRankedByDuration() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let anchor = try await client.newGroupRoute(me, "Zed path", Self.path)
            let noisy = try await client.newGroupRoute(me, "Alpha noisy", F.noisy(Self.path))  // 297 s too
            let fast = try await client.newGroupRoute(me, "Fast", F.straight(dt: 2))  // 198 s
            let reversed = try await client.newGroupRoute(me, "Reversed", F.reversed(Self.path))
            let detour = try await client.newGroupRoute(
                me, "Detour", F.polyline(legs: [(0, 20), (90, 99), (180, 20)]))  // same ends, 200 m out
            let longer = try await client.newGroupRoute(me, "Longer", F.straight(130))  // 300 m past the end
            let shorter = try await client.newGroupRoute(me, "Shorter", F.straight(70))
            let elsewhere = try await client.newGroupRoute(
                me, "Elsewhere", F.straight(from: Coordinate(lat: 47.5, lon: 8.7)))

            let response = try await client.similarRoutes(me, anchor)
            #expect(response.status == .ok)
            #expect(Set(response.json.keys) == ["items"])
            let items = F.items(response)
            #expect(items.map { $0["route"] as? String } == [fast, noisy, anchor])
            #expect(items.map { $0["rank"] as? Int } == [1, 2, 2])  // equal durations share a rank, by name
            #expect(items.map { F.value($0["duration_s"]) } == [198, 297, 297])
            #expect(items.map { $0["owner"] as? String } == ["me", "me", "me"])
            #expect(items.map { $0["name"] as? String } == ["Fast", "Alpha noisy", "Zed path"])
            #expect(items.first.map { Set($0.keys) } == ["route", "name", "owner", "frechet_m", "duration_s", "rank"])
            let found = Self.byRoute(response)
            #expect(F.value(found[anchor]?["frechet_m"]) == 0)  // the route itself
            #expect(F.value(found[fast]?["frechet_m"]) ?? 1 < 1e-6)  // the same places, faster
            let noise = try #require(F.value(found[noisy]?["frechet_m"]))
            #expect(noise > 0 && noise <= 10, "noise gave \(noise)")
            for absent in [reversed, detour, longer, shorter, elsewhere] {
                #expect(found[absent] == nil)
            }

            // A looser bound takes the detour in (its farthest point is 200 m off the path).
            let loose = try await client.similarRoutes(me, anchor, maxM: "250")
            let detoured = try #require(F.value(Self.byRoute(loose)[detour]?["frechet_m"]))
            #expect(detoured > 195 && detoured < 210, "detour gave \(detoured)")
            #expect(Self.byRoute(loose)[reversed] == nil)

            // Similarity is symmetric here: from the noisy route, the anchor is similar too.
            let fromNoisy = Self.byRoute(try await client.similarRoutes(me, noisy))
            #expect(F.value(fromNoisy[anchor]?["frechet_m"]) == noise)
        }
    }

    @Test func aLoopDrivenTheOtherWayRoundIsNotSimilar() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let square = F.polyline(legs: [(90, 25), (0, 25), (270, 25), (180, 25)])  // 1 km, back at the start
            let loop = try await client.newGroupRoute(me, "Loop", square)
            let again = try await client.newGroupRoute(me, "Loop again", F.noisy(square, amplitude: 3))
            let backwards = try await client.newGroupRoute(me, "Backwards", F.reversed(square))
            let found = Self.byRoute(try await client.similarRoutes(me, loop, maxM: "100"))
            #expect(Set(found.keys) == [loop, again])  // the start and end agree, the way round does not
            #expect(found[backwards] == nil)
        }
    }

    @Test func maxMMustBeInRangeAndTheRouteVisible() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let stranger = try await client.register("stranger")
            let anchor = try await client.newGroupRoute(me, "Path", Self.path)
            for bad in ["0", "-1", "10001", "x", "", "nan", "inf"] {
                let response = try await client.similarRoutes(me, anchor, maxM: bad)
                #expect(response.status == .badRequest, "max_m=\(bad)")
                #expect(response.errorCode == "invalid_request", "max_m=\(bad)")
            }
            for good in ["10000", "0.5", "50"] {
                #expect(try await client.similarRoutes(me, anchor, maxM: good).status == .ok, "max_m=\(good)")
            }
            for route in [anchor, F.madeUpRoute, "not-an-id"] {
                let response = try await client.similarRoutes(stranger, route)
                #expect(response.status == .notFound, "\(route)")
                #expect(response.errorCode == "not_found")
            }
            #expect(try await client.similarRoutes("not-a-token", anchor).status == .unauthorized)
        }
    }

    /// One request scans at most the configured number of Fréchet cells over all its pairs; more
    /// is a `422` naming the candidates and telling what to change, never minutes of CPU.
    @Test func theWorkOfOneRequestIsBounded() async throws {
        // 1 km paths resampled every 10 m (101 samples): at max_m=10000 a pair fills the whole
        // table, ~10,400 cells, each weighted as ~31 fast cells (~320,000). A budget of 700,000
        // takes the anchor with itself and one more.
        try await withApp(configure: { $0.similarCellBudget = 700_000 }) { client in
            let me = try await client.register("me")
            let anchor = try await client.newGroupRoute(me, "Path", Self.path)
            _ = try await client.newGroupRoute(me, "Again", F.noisy(Self.path))
            #expect(try await client.similarRoutes(me, anchor, maxM: "10000").status == .ok)
            for name in ["Third", "Fourth", "Fifth"] {
                _ = try await client.newGroupRoute(me, name, F.noisy(Self.path))
            }
            let response = try await client.similarRoutes(me, anchor, maxM: "10000")
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == "unprocessable")
            #expect(response.text.contains("max_m"))
            #expect(response.json[object: "error"][number: "candidates"] == 5)
            // The narrow default band costs a fraction of that: the same routes are compared.
            #expect(F.items(try await client.similarRoutes(me, anchor)).count == 5)
        }
    }

    /// The refusal is decided from route lengths before any path is read (`scripts/probe costly`
    /// measures it: an 891 km route with 50 candidates is refused in milliseconds).
    @Test func theCostIsCountedBeforeAnyPathIsRead() {
        let budget = AppConfiguration().similarCellBudget
        let long = SimilarRoutes.estimatedCost(
            anchorM: 891_000, candidatesM: Array(repeating: 891_000, count: 50), maxM: 50)
        #expect(long.cells > budget || long.samples > SimilarRoutes.sampleBudget)
        // A narrow band does not make 50 such paths cheap: resampling them is the cost.
        let narrow = SimilarRoutes.estimatedCost(
            anchorM: 891_000, candidatesM: Array(repeating: 891_000, count: 50), maxM: 10)
        #expect(narrow.samples > SimilarRoutes.sampleBudget)
        let few = SimilarRoutes.estimatedCost(
            anchorM: 891_000, candidatesM: Array(repeating: 891_000, count: 8), maxM: 50)
        #expect(few.cells <= budget && few.samples <= SimilarRoutes.sampleBudget)
        // A pair never counts more than its whole table, nor more than twice the pair's cap.
        let weight = SimilarRoutes.cellWeight(maxM: 10_000)
        let short = SimilarRoutes.estimatedCost(anchorM: 1000, candidatesM: [1000], maxM: 10_000)
        #expect(abs(Double(short.cells) - 102 * 102 * weight) <= 1 && short.samples == 204)
        let huge = SimilarRoutes.estimatedCost(anchorM: 1e6, candidatesM: [1e6], maxM: 10_000)
        #expect(abs(Double(huge.cells) - 2 * Double(SimilarRoutes.pairCellLimit) * weight) <= 1)
        // Distances up to 1 km have the geodesic's fast path; past it a cell costs ~34 of those.
        #expect(SimilarRoutes.cellWeight(maxM: 50) == 1 && SimilarRoutes.cellWeight(maxM: 1000) == 1)
        #expect(weight > 30 && weight < SimilarRoutes.slowCellCost)
    }

    /// Issue 43 #7: a 664 km route compared with itself at `max_m=10000` counted as 20 M cells
    /// (under the 40 M budget) and took 7 s of CPU, because at that distance every cell needs
    /// Karney's algorithm. Weighted, it is refused from the route's length before any path is read.
    @Test func aLongRouteAtTheWidestMaxMIsRefusedBeforeItsPathIsRead() async throws {
        let budget = AppConfiguration().similarCellBudget
        let probe = SimilarRoutes.estimatedCost(anchorM: 664_000, candidatesM: [664_000], maxM: 10_000)
        #expect(probe.cells > budget)
        #expect(SimilarRoutes.estimatedCost(anchorM: 664_000, candidatesM: [664_000], maxM: 50).cells <= budget)
        // A 30 km route (3,000 samples): 12 M raw cells at max_m=10000, ~370 M weighted.
        let long = GroupFixture.straight(300, step: 100)
        try await withAppAndDatabase { client, database in
            let me = try await client.register("me")
            let anchor = try await client.newGroupRoute(me, "Long", long)
            let response = try await client.similarRoutes(me, anchor, maxM: "10000")
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("max_m"))
            let group = try await client.send(
                .post, "/v1/groups", token: me,
                json: #"{"name":"Wide","similar_to":"\#(anchor)","max_m":10000}"#)
            #expect(group.status == .unprocessableContent)
            // Nothing was resampled: the route's path, once computed, is stored in `paths` (by
            // route and lens, the owner's lens being "o").
            let stored: BSONDocument = ["_id": .string("\(anchor):o")]
            #expect(try await database.collection("paths").findOne(stored) == nil)
            // The default band is cheap: the route finds itself, and its path is stored.
            #expect(F.items(try await client.similarRoutes(me, anchor)).count == 1)
            #expect(try await database.collection("paths").findOne(stored) != nil)
        }
    }

    @Test func friendsSharedRoutesAreCandidatesStrangersAreNot() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let friend = try await client.register("friend", friends: ["me"])
            let stranger = try await client.register("stranger")
            let anchor = try await client.newGroupRoute(me, "Path", Self.path)
            let shared = try await client.newGroupRoute(friend, "Friend", F.straight(dt: 2.5))
            let notShared = try await client.newGroupRoute(friend, "Friend private", F.straight(dt: 2))
            let strangers = try await client.newGroupRoute(stranger, "Stranger", F.straight(dt: 1))
            try await client.shareForGroup(friend, shared, to: "me")

            var found = Self.byRoute(try await client.similarRoutes(me, anchor))
            #expect(Set(found.keys) == [anchor, shared])
            #expect(found[shared]?["owner"] as? String == "friend")
            #expect(found[shared]?["rank"] as? Int == 1)
            #expect(F.value(found[shared]?["duration_s"]) == 247.5)
            #expect(F.value(found[shared]?["frechet_m"]) == 0)
            for absent in [notShared, strangers] { #expect(found[absent] == nil) }

            // The shared route's own list, asked by me, holds the routes I can see; the friend's, theirs.
            #expect(Set(Self.byRoute(try await client.similarRoutes(me, shared)).keys) == [anchor, shared])
            #expect(Set(Self.byRoute(try await client.similarRoutes(friend, shared)).keys) == [shared, notShared])

            try await client.unshareForGroup(friend, shared, from: "me")
            found = Self.byRoute(try await client.similarRoutes(me, anchor))
            #expect(Set(found.keys) == [anchor])
            #expect(try await client.similarRoutes(me, shared).status == .notFound)
        }
    }

    @Test func theOwnersPrivacyZonesChangeWhatOthersMatch() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let shy = try await client.register("shy", friends: ["me"])
            let anchor = try await client.newGroupRoute(me, "Path", Self.path)
            let theirs = try await client.newGroupRoute(shy, "Shy", F.straight(dt: 2))
            try await client.shareForGroup(shy, theirs, to: "me")
            // Zones of `radius` m centred `west` m west of the path's start.
            func zone(west: Double, radius: Double) async throws {
                let c = Geodesic.direct(from: F.base, azimuth: 270, distance: west)
                let json = radius == 0 ? "[]" : #"[{"lat":\#(c.lat),"lon":\#(c.lon),"radius_m":\#(radius)}]"#
                let response = try await client.send(.put, "/v1/users/me/privacy_zones", token: shy, json: json)
                #expect(response.status == .ok)
            }
            func frechet() async throws -> Double? {
                F.value(Self.byRoute(try await client.similarRoutes(me, anchor))[theirs]?["frechet_m"])
            }
            #expect(try await frechet() == 0)

            // The first 3 points (up to 20 m; the 4th is 105 m from the centre) hidden: the start I
            // see is 30 m in, and so is the Fréchet distance from my start to it.
            try await zone(west: 75, radius: 100)
            let shortened = try #require(try await frechet())
            #expect(abs(shortened - 30) < 0.5, "gave \(shortened)")
            // The first 150 m hidden: the start I see is too far from mine.
            try await zone(west: 5, radius: 150)
            #expect(try await frechet() == nil)
            // The owner sees the whole route, which matches itself.
            #expect(Set(Self.byRoute(try await client.similarRoutes(shy, theirs)).keys) == [theirs])
            // No zones: the whole route again (no stale cached path).
            try await zone(west: 0, radius: 0)
            #expect(try await frechet() == 0)
        }
    }

    @Test func aGroupOfTheSimilarRoutes() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let anchor = try await client.newGroupRoute(me, "Path", Self.path)
            let noisy = try await client.newGroupRoute(me, "Noisy", F.noisy(Self.path))
            let fast = try await client.newGroupRoute(me, "Fast", F.straight(dt: 2))
            let detour = try await client.newGroupRoute(
                me, "Detour", F.polyline(legs: [(0, 20), (90, 99), (180, 20)]))
            _ = try await client.newGroupRoute(me, "Reversed", F.reversed(Self.path))
            let theirs = try await client.newGroupRoute(other, "Theirs", Self.path)

            let created = try await client.send(
                .post, "/v1/groups", token: me, json: #"{"name":"Same way","similar_to":"\#(anchor)"}"#)
            #expect(created.status == .created)
            #expect(Set(F.members(created)) == [anchor, noisy, fast])
            #expect(F.members(created).count == 3)
            let similar = F.items(try await client.similarRoutes(me, anchor)).compactMap { $0["route"] as? String }
            #expect(Set(similar) == Set(F.members(created)))

            let loose = try await client.send(
                .post, "/v1/groups", token: me, json: #"{"name":"Loose","similar_to":"\#(anchor)","max_m":250}"#)
            #expect(loose.status == .created)
            #expect(Set(F.members(loose)) == [anchor, noisy, fast, detour])

            // A friend's route shared with me can be the anchor; the group holds what I can see.
            let friend = try await client.register("friend", friends: ["me"])
            let shared = try await client.newGroupRoute(friend, "Shared", F.straight(dt: 2.5))
            try await client.shareForGroup(friend, shared, to: "me")
            let fromShared = try await client.send(
                .post, "/v1/groups", token: me, json: #"{"name":"Theirs","similar_to":"\#(shared)"}"#)
            #expect(fromShared.status == .created)
            #expect(Set(F.members(fromShared)) == [anchor, noisy, fast, shared])

            for route in [theirs, F.madeUpRoute] {
                let refused = try await client.send(
                    .post, "/v1/groups", token: me, json: #"{"name":"No","similar_to":"\#(route)"}"#)
                #expect(refused.status == .unprocessableContent, "\(route)")
                #expect(refused.errorCode == "unprocessable")
                #expect(F.badIDs(refused) == [route])
            }
            for maxM in ["0", "10001", "\"x\""] {
                let refused = try await client.send(
                    .post, "/v1/groups", token: me, json: #"{"name":"No","similar_to":"\#(anchor)","max_m":\#(maxM)}"#)
                #expect(refused.status == .badRequest, "max_m \(maxM)")
            }
            #expect(F.items(try await client.send(.get, "/v1/groups", token: me)).count == 3)
        }
    }
}
