import Foundation
import HummingbirdTesting
import Mongo
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import Testing

@testable import RouteRankerServer

/// Issue 43, rows 2–4, through the server: ingest now refuses the elevations that made them, but a
/// stored route may hold such stats (written before the ranges, or damaged), and its pages and
/// pictures must still be answered. The routes are written through `RouteIngest`, past
/// `PointValidation`, as such a record would have been; before the fix each request here stopped
/// the process.
@Suite struct ExtremeStoredStatsTests {
    static let t0 = 1_764_000_000.0

    /// A finished route of `me` whose points have elevations `eles`, stored without validation.
    static func storedRoute(
        _ client: any TestClientProtocol, _ database: MongoDatabase, _ me: String, eles: [Double]
    ) async throws -> String {
        let id = try await client.newSharedRoute(
            me, points: [TrackPoint(lat: 48.2, lon: 16.37, t: t0, ele: 0)], recording: true)
        let routes = RouteRepository(database: database)
        let stored = try #require(try await routes.find(id: id))
        var ingest = RouteIngest(into: stored, buckets: PointBuckets(database: database), routes: routes)
        try await ingest.add(
            eles.enumerated().map { index, ele in
                TrackPoint(lat: 48.2 + Double(index + 1) * 0.0001, lon: 16.37, t: t0 + Double(index + 1) * 10, ele: ele)
            })
        _ = try await ingest.commit(state: .finished)
        return id
    }

    @Test func pagesAndPicturesOfExtremeStoredStatsAreAnswered() async throws {
        try await withAppAndDatabase { client, database in
            let me = try await client.register("ada")
            // Row 2: a gain of 1e300; row 3: a climb of 5e-324 m; row 4: a gain above 9.2e18.
            let routes = [
                ("1e+300 m", try await Self.storedRoute(client, database, me, eles: [1e300, 1e300])),
                ("0 m", try await Self.storedRoute(client, database, me, eles: [Double.leastNonzeroMagnitude, 0])),
                ("9.3e+18 m", try await Self.storedRoute(client, database, me, eles: [9.3e18])),
            ]
            for (gain, id) in routes {
                let created = try await client.send(.post, "/v1/routes/\(id)/links", token: me, json: "{}")
                let pageURL = try #require(created.json["page_url"] as? String)
                let page = try await client.send(.get, pageURL)
                #expect(page.status == .ok, "\(gain): \(page.text.prefix(200))")
                #expect(page.text.contains(gain), "the link page shows the gain as \(gain)")
                for picture in ["map.svg", "profile.svg?y=elevation", "profile.svg?y=speed&x=time"] {
                    let svg = try await client.send(.get, "/v1/routes/\(id)/\(picture)", token: me)
                    #expect(svg.status == .ok, "\(picture): \(svg.text.prefix(200))")
                    #expect(!svg.text.lowercased().contains("nan") && !svg.text.lowercased().contains("inf"))
                }
            }
            for metric in ["elevation", "distance", "time"] {
                let log = try await client.send(.get, "/v1/users/me/log.svg?metric=\(metric)", token: me)
                #expect(log.status == .ok, "\(metric): \(log.text.prefix(200))")
                #expect(!log.text.lowercased().contains("nan") && !log.text.lowercased().contains("inf"))
            }
        }
    }

    /// Row 5's aftermath: a route stored with an infinite figure (before the ranges, or damaged)
    /// made the lists of everyone it was shared with `500` until its owner deleted it. Such a figure
    /// is now written as `null`, and the lists answer.
    @Test func aStoredInfiniteFigureDoesNotBreakOtherPeoplesLists() async throws {
        try await withAppAndDatabase { client, database in
            let attacker = try await client.register("mallory", friends: ["victor"])
            let victim = try await client.register("victor")
            let route = try await client.newSharedRoute(attacker)
            #expect(try await client.shareRoute(attacker, route, to: "victor").status == .created)
            _ = try await database.collection("routes").updateOne(
                filter: ["_id": .string(route)], update: ["$set": ["stats_state.elevation.gain": .double(.infinity)]])
            let start = SharingFixture.start
            for (token, path) in [
                (victim, "/v1/shares"), (victim, "/v1/routes?near=\(start.lat),\(start.lon)&radius_m=1000"),
                (attacker, "/v1/routes"),
            ] {
                let answer = try await client.send(.get, path, token: token)
                #expect(answer.status == .ok, "\(path): \(answer.text.prefix(300))")
                #expect(answer.text.contains(#""elevation_gain_m":null"#), "\(path): \(answer.text.prefix(300))")
            }
        }
    }
}
