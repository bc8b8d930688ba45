import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

extension RouteTests {
    /// `GET /v1/routes`: every sort, walked page by page; and the `near` search.
    @Suite struct RoutesListTests {
        static let sortKeys = ["started_at", "name", "distance_m", "duration_s", "avg_pace_s_per_km"]

        /// Thirteen routes with ties, empty routes and code-point names; returns their summaries.
        func makeRoutes(_ client: any TestClientProtocol, _ token: String) async throws -> [JSONObject] {
            var routes: [JSONObject] = []
            let names = ["Zed", "ália", "Ália", "alpha", "Beta", "beta", "Same", "Same", "Ω"]
            for (i, name) in names.enumerated() {
                // Routes 6 and 7 are identical but for the name: ties in every numeric key.
                let shape = i == 7 ? 6 : i
                let start = Geodesic.direct(from: Fixture.origin, azimuth: Double(shape) * 30, distance: 200)
                let points = Fixture.track(
                    3 + (shape * 7) % 11, from: start, t0: Fixture.t0 + Double((shape * 5) % 9) * 3600,
                    speed: 1 + Double(shape % 4))
                routes.append(try await client.createRoute(token, points, name: name))
            }
            routes.append(try await client.createRoute(token, [TrackPoint(lat: 1, lon: 2, t: Fixture.t0)], name: "One"))
            for name in ["Empty", "Empty", "Void"] {
                routes.append(try await client.createRoute(token, name: name, recording: true))
            }
            return routes
        }

        /// The order API.md gives: valued routes by value (ties by id), then the rest by id.
        func expectedOrder(_ routes: [JSONObject], key: String, descending: Bool) -> [String] {
            func value(_ route: JSONObject) -> Any? {
                switch key {
                case "started_at", "name": route[key] as? String
                default: route[object: "stats"][number: key]
                }
            }
            func less(_ a: Any, _ b: Any) -> Bool {
                if let x = a as? String, let y = b as? String { return x.utf8.lexicographicallyPrecedes(y.utf8) }
                guard let x = a as? Double, let y = b as? Double else {
                    Issue.record("not comparable: \(a), \(b)")
                    return false
                }
                return x < y
            }
            let id = { (r: JSONObject) -> String in
                guard let id = r["id"] as? String else {
                    Issue.record("a route without an id: \(r)")
                    return ""
                }
                return id
            }
            let valued = routes.filter { value($0) != nil }.sorted { a, b in
                let (x, y) = (value(a)!, value(b)!)
                if less(x, y) || less(y, x) { return descending ? less(y, x) : less(x, y) }
                return id(a) < id(b)
            }
            return valued.map(id) + routes.filter { value($0) == nil }.map(id).sorted()
        }

        /// Walks every page of `query`, checking `total` on each; returns the ids in order.
        func walk(
            _ client: any TestClientProtocol, _ token: String, _ query: String, total: Int? = nil, from: String? = nil
        ) async throws -> [String] {
            var ids: [String] = []
            var cursor = from
            var pages = 0
            repeat {
                let page = try await client.send(
                    .get, "/v1/routes?\(query)" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
                #expect(page.status == .ok, "\(query): \(page.text.prefix(200))")
                if let total { #expect(page.json["total"] as? Int == total, "\(query)") }
                ids += (page.json["items"] as? [JSONObject] ?? []).compactMap { $0["id"] as? String }
                cursor = page.json["next"] as? String
                pages += 1
            } while cursor != nil && pages < 50
            return ids
        }

        @Test func everySortWalksAllRoutesOnceInContractOrder() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let stranger = try await client.register("bob")
                _ = try await client.createRoute(stranger, Fixture.track(4), name: "Not mine")
                let routes = try await makeRoutes(client, token)
                #expect(routes.count == 13)
                for key in Self.sortKeys {
                    for descending in [false, true] {
                        let sort = (descending ? "-" : "") + key
                        let ids = try await walk(client, token, "sort=\(sort)&limit=5", total: 13)
                        #expect(ids == expectedOrder(routes, key: key, descending: descending), "\(sort)")
                    }
                }
                let whole = try await client.send(.get, "/v1/routes", token: token)
                #expect(
                    (whole.json["items"] as? [JSONObject])?.compactMap { $0["id"] as? String }
                        == expectedOrder(routes, key: "started_at", descending: true))
                #expect(whole.json["next"] is NSNull)
                let item = try #require((whole.json["items"] as? [JSONObject])?.first)
                #expect(item["distance_from_m"] == nil && item["stats"] != nil)
            }
        }

        /// The first page tells the total without a count when it holds the whole list: the total
        /// must be the same either way, at every edge (empty, one short of a page, a full page, one
        /// more than a page), with routes on both sides of the null phase (empty recordings).
        @Test func totalIsExactOnEitherSideOfAFullFirstPage() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                for n in 0...7 {
                    if n > 0 {
                        if n % 3 == 0 {
                            _ = try await client.createRoute(token, name: "Empty \(n)", recording: true)
                        } else {
                            _ = try await client.createRoute(token, Fixture.track(3, t0: Fixture.t0 + Double(n) * 3600))
                        }
                    }
                    let first = try await client.send(.get, "/v1/routes?limit=5", token: token)
                    #expect(first.json["total"] as? Int == n, "\(n) routes")
                    #expect((first.json["items"] as? [JSONObject])?.count == min(n, 5), "\(n) routes")
                    #expect((first.json["next"] is NSNull) == (n <= 5), "\(n) routes")
                    let ids = try await walk(client, token, "limit=5", total: n)
                    #expect(ids.count == n && Set(ids).count == n, "\(n) routes")
                }
            }
        }

        @Test func routesAddedBetweenPagesCauseNoRepeats() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let routes = try await makeRoutes(client, token)
                let first = try await client.send(.get, "/v1/routes?sort=-started_at&limit=5", token: token)
                var seen = (first.json["items"] as? [JSONObject] ?? []).compactMap { $0["id"] as? String }
                let cursor = try #require(first.json["next"] as? String)
                // One route sorts before the cursor (already passed), one after it.
                let newest = try await client.createRoute(token, Fixture.track(3, t0: Fixture.t0 + 86400 * 30))
                let oldest = try await client.createRoute(token, Fixture.track(3, t0: Fixture.t0 - 86400 * 30))
                seen += try await walk(client, token, "sort=-started_at&limit=5", total: 15, from: cursor)
                #expect(seen.count == Set(seen).count)
                #expect(Set(seen) == Set(try routes.map { try $0.requiredID() } + [try oldest.requiredID()]))
                #expect(!seen.contains(try newest.requiredID()))
            }
        }

        @Test func foreignOrMalformedCursorsAndBadSortsAre400() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                _ = try await makeRoutes(client, token)
                let page = try await client.send(.get, "/v1/routes?sort=name&limit=2", token: token)
                let cursor = try #require(page.json["next"] as? String)
                #expect(
                    try await client.send(.get, "/v1/routes?sort=name&limit=2&cursor=\(cursor)", token: token).status
                        == .ok
                )
                for query in [
                    "sort=-name&cursor=\(cursor)", "sort=distance_m&cursor=\(cursor)", "cursor=\(cursor)",
                    "near=52.5,13.4&radius_m=1000&cursor=\(cursor)", "sort=name&cursor=x\(cursor)",
                    "sort=name&cursor=%7B%7D",
                    "sort=foo", "sort=--name", "sort=NAME", "sort=", "limit=0", "limit=201", "limit=five",
                ] {
                    let response = try await client.send(.get, "/v1/routes?\(query)", token: token)
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorCode == "invalid_request", "\(query)")
                }
                let bad = try await client.send(.get, "/v1/routes?sort=speed", token: token)
                #expect(bad.json[object: "error"]["field"] as? String == "sort")
            }
        }

        @Test func nearFindsVisibleStartsWithinTheRadiusNearestFirst() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let bob = try await client.register("bob")
                let centre = Coordinate(lat: 48.2, lon: 16.37)
                var starts: [String: Double] = [:]
                for (metres, azimuth) in [(900.0, 200.0), (0, 0), (5000, 90), (1100, 300), (150, 45)] {
                    let start = Geodesic.direct(from: centre, azimuth: azimuth, distance: metres)
                    let summary = try await client.createRoute(
                        token, Fixture.track(3, from: start), name: "At \(metres)")
                    starts[try summary.requiredID()] = metres
                }
                _ = try await client.createRoute(token, name: "No start")
                _ = try await client.createRoute(bob, Fixture.track(3, from: centre), name: "Bob's")
                let byDistance = starts.sorted { $0.value < $1.value }.map(\.key)

                func near(_ radius: String, _ extra: String = "") async throws -> [JSONObject] {
                    let response = try await client.send(
                        .get, "/v1/routes?near=48.2,16.37&radius_m=\(radius)\(extra)", token: token)
                    #expect(response.status == .ok, "\(radius): \(response.text.prefix(200))")
                    return response.json["items"] as? [JSONObject] ?? []
                }
                let within = try await near("1000")
                #expect(within.compactMap { $0["id"] as? String } == Array(byDistance.prefix(3)))
                for item in within {
                    let start = item[object: "stats"][object: "start"]
                    let exact = Geodesic.distance(
                        from: centre, to: Coordinate(lat: start[number: "lat"]!, lon: start[number: "lon"]!))
                    #expect(abs(item[number: "distance_from_m"]! - exact) < 1e-6)
                    #expect(abs(exact - starts[try item.requiredID()]!) < 1e-3)
                }
                #expect(try await near("1099.999").count == 3)
                #expect(try await near("1100.001").count == 4)
                #expect(try await near("0").compactMap { $0["id"] as? String } == [byDistance[0]])
                let everywhere = try await near("20037509", "&sort=name")
                #expect(everywhere.compactMap { $0["id"] as? String } == byDistance)
                let paged = try await walk(client, token, "near=48.2,16.37&radius_m=20037509&limit=2", total: 5)
                #expect(paged == byDistance)
            }
        }

        @Test func nearWorksAcrossTheAntimeridianAndAtThePoles() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let east = try await client.createRoute(token, [TrackPoint(lat: 0.5, lon: 179.99, t: Fixture.t0)])
                let west = try await client.createRoute(token, [TrackPoint(lat: 0.5, lon: -179.99, t: Fixture.t0)])
                let pole = try await client.createRoute(token, [TrackPoint(lat: 89.999, lon: 180, t: Fixture.t0)])
                let across = try await client.send(.get, "/v1/routes?near=0.5,-179.995&radius_m=2000", token: token)
                let ids = (across.json["items"] as? [JSONObject] ?? []).compactMap { $0["id"] as? String }
                #expect(Set(ids) == [try east.requiredID(), try west.requiredID()])
                let north = try await client.send(.get, "/v1/routes?near=89.999,0&radius_m=300", token: token)
                let item = try #require((north.json["items"] as? [JSONObject])?.first)
                #expect(item["id"] as? String == pole["id"] as? String)
                let exact = Geodesic.distance(
                    from: Coordinate(lat: 89.999, lon: 0), to: Coordinate(lat: 89.999, lon: 180))
                #expect(abs(item[number: "distance_from_m"]! - exact) < 1e-6)
            }
        }

        @Test func badNearParametersAre400() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let cases = [
                    ("near=abc&radius_m=10", "near"), ("near=91,0&radius_m=10", "near"),
                    ("near=0,181&radius_m=10", "near"),
                    ("near=1&radius_m=10", "near"), ("near=1,2,3&radius_m=10", "near"), ("near=&radius_m=10", "near"),
                    ("near=1,2", "radius_m"), ("radius_m=20037510", "radius_m"), ("radius_m=10", "radius_m"),
                    ("near=1,2&radius_m=-1", "radius_m"),
                    ("near=1,2&radius_m=20037510", "radius_m"),
                    ("near=1,2&radius_m=abc", "radius_m"), ("near=1,2&radius_m=nan", "radius_m"),
                    ("near=nan,2&radius_m=5", "near"),
                ]
                for (query, field) in cases {
                    let response = try await client.send(.get, "/v1/routes?\(query)", token: token)
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.json[object: "error"]["field"] as? String == field, "\(query)")
                }
            }
        }
    }
}
