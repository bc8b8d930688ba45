import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite struct CompareTests {
    typealias F = GroupFixture

    /// A group of my routes, one per duration (each 1 km long), named `name`.
    static func durationGroup(
        _ client: some TestClientProtocol, _ token: String, _ name: String, _ durations: [Double],
        metres: Double = 1000
    ) async throws -> String {
        var ids: [String] = []
        for (i, seconds) in durations.enumerated() {
            ids.append(try await client.newGroupRoute(token, "\(name) \(i)", F.leg(metres: metres, seconds: seconds)))
        }
        return try await client.newGroup(token, name, ids)
    }

    static func pairs(_ response: TestResponse) -> [JSONObject] {
        response.json["pairs"] as? [JSONObject] ?? []
    }

    /// The pair's Welch figures are the reference's to 1e-9 (relative).
    static func expectWelch(
        _ pair: JSONObject?, t: Double, df: Double, p: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        F.expectClose(pair?["t"], t, "t", sourceLocation: sourceLocation)
        F.expectClose(pair?["df"], df, "df", sourceLocation: sourceLocation)
        F.expectClose(pair?["p_value"], p, "p_value", sourceLocation: sourceLocation)
    }

    static func expectNoWelch(_ pair: JSONObject?, sourceLocation: SourceLocation = #_sourceLocation) {
        for key in ["t", "df", "p_value"] {
            #expect(pair?[key] is NSNull, "\(key) should be null", sourceLocation: sourceLocation)
        }
    }

    @Test func threeGroupsGiveStatsRankingAndWelchPairsInRequestedOrder() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let bridge = try await Self.durationGroup(client, me, "Bridge", [600, 630, 645, 700, 610])
            let park = try await Self.durationGroup(client, me, "Park", [580, 720, 800, 690])
            let river = try await Self.durationGroup(client, me, "River", [650, 655, 661])

            let response = try await client.send(.get, "/v1/compare?groups=\(park),\(bridge),\(river)", token: me)
            #expect(response.status == .ok)
            #expect(Set(response.json.keys) == ["metric", "groups", "ranking", "pairs"])
            #expect(response.json["metric"] as? String == "duration_s")
            let groups = try #require(response.json["groups"] as? [JSONObject])
            #expect(groups.map { $0["id"] as? String } == [park, bridge, river])
            #expect(groups.map { $0["name"] as? String } == ["Park", "Bridge", "River"])
            #expect(groups.map { $0["count"] as? Int } == [4, 5, 3])
            // numpy: mean, median, std(ddof=1) of each group.
            for (group, figures) in zip(
                groups,
                [
                    (697.5, 705.0, 91.05858919765156), (637.0, 630.0, 39.30648801406709),
                    (655.3333333333334, 655.0, 5.507570547286102),
                ]
            ) {
                F.expectClose(group["mean"], figures.0, "mean")
                F.expectClose(group["median"], figures.1, "median")
                F.expectClose(group["stddev"], figures.2, "stddev")
                #expect((group["ranking"] as? [JSONObject])?.count == group["count"] as? Int)
                #expect(group["total_distance_m"] != nil)
            }
            #expect(response.json["ranking"] as? [String] == [bridge, river, park])  // lowest mean first

            let pairs = Self.pairs(response)
            #expect(
                pairs.map { [$0["a"] as? String, $0["b"] as? String] } == [
                    [park, bridge], [park, river], [bridge, river],
                ])
            F.expectClose(pairs[0]["mean_diff"], 60.5)
            F.expectClose(pairs[0]["ratio"], 697.5 / 637)
            F.expectClose(pairs[1]["mean_diff"], 697.5 - 1966.0 / 3)
            F.expectClose(pairs[2]["ratio"], 637 / (1966.0 / 3))
            // scipy 1.17.1: stats.ttest_ind(a, b, equal_var=False) → (statistic, df, pvalue), with
            // park = [580, 720, 800, 690], bridge = [600, 630, 645, 700, 610], river = [650, 655, 661].
            // ttest_ind(park, bridge, equal_var=False)
            Self.expectWelch(pairs[0], t: 1.2396300430085463, df: 3.8961231049958283, p: 0.28453978184962825)
            // ttest_ind(park, river, equal_var=False)
            Self.expectWelch(pairs[1], t: 0.9238931349730389, df: 3.029229600247775, p: 0.4230866722578939)
            // ttest_ind(bridge, river, equal_var=False)
            Self.expectWelch(pairs[2], t: -1.0262908849353565, df: 4.256943176608855, p: 0.3594934568696143)

            // With a higher-is-better metric the ranking turns round: speed = length / duration.
            let speeds = try await client.send(
                .get, "/v1/compare?groups=\(park),\(bridge),\(river)&metric=avg_speed_mps", token: me)
            #expect(speeds.json["metric"] as? String == "avg_speed_mps")
            #expect(speeds.json["ranking"] as? [String] == [bridge, river, park])
            let means = (speeds.json["groups"] as? [JSONObject] ?? []).compactMap { F.value($0["mean"]) }
            #expect(means.count == 3 && means[1] > means[2] && means[2] > means[0])
        }
    }

    @Test func aVerySmallPValueMatchesTheReference() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let fast = try await Self.durationGroup(client, me, "Fast", [300, 302, 305, 301])
            let slow = try await Self.durationGroup(client, me, "Slow", [400, 410, 395, 405, 398])
            let response = try await client.send(.get, "/v1/compare?groups=\(fast),\(slow)", token: me)
            #expect(response.status == .ok)
            #expect(response.json["ranking"] as? [String] == [fast, slow])
            // scipy 1.17.1: stats.ttest_ind([300, 302, 305, 301], [400, 410, 395, 405, 398], equal_var=False)
            Self.expectWelch(
                Self.pairs(response).first, t: -34.72541047851177, df: 5.240427503403411, p: 2.131323042936368e-07)
        }
    }

    @Test func welchIsNullUnderTwoRoutesOrWithoutSpreadAndGroupsWithoutValuesRankLast() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let single = try await Self.durationGroup(client, me, "Single", [500])
            let spread = try await Self.durationGroup(client, me, "Spread", [400, 600])
            let flatLow = try await Self.durationGroup(client, me, "Flat low", [300, 300])
            let flatHigh = try await Self.durationGroup(client, me, "Flat high", [400, 400])
            let wide = try await Self.durationGroup(client, me, "Wide", [400, 500])
            let still = try await Self.durationGroup(client, me, "Still", [50, 70], metres: 0)  // no pace, no movement

            let one = try await client.send(.get, "/v1/compare?groups=\(single),\(spread)", token: me)
            let onePair = Self.pairs(one).first
            F.expectClose(onePair?["mean_diff"], 0)
            F.expectClose(onePair?["ratio"], 1)
            Self.expectNoWelch(onePair)

            let flat = try await client.send(.get, "/v1/compare?groups=\(flatLow),\(flatHigh)", token: me)
            F.expectClose(Self.pairs(flat).first?["mean_diff"], -100)
            F.expectClose(Self.pairs(flat).first?["ratio"], 0.75)
            Self.expectNoWelch(Self.pairs(flat).first)

            // One variance 0 is enough for Welch. scipy 1.17.1:
            // stats.ttest_ind([300, 300], [400, 500], equal_var=False)
            let half = try await client.send(.get, "/v1/compare?groups=\(flatLow),\(wide)", token: me)
            Self.expectWelch(Self.pairs(half).first, t: -3.0, df: 1.0, p: 0.20483276469913345)

            // Equal means: by name, then id. scipy 1.17.1: stats.ttest_ind([300, 300], [200, 400], equal_var=False)
            let another = try await Self.durationGroup(client, me, "Another flat low", [200, 400])
            let tie = try await client.send(.get, "/v1/compare?groups=\(flatLow),\(another)", token: me)
            #expect(tie.json["ranking"] as? [String] == [another, flatLow])
            Self.expectWelch(Self.pairs(tie).first, t: 0, df: 1, p: 1)

            // Pace: the still group has no value, so no mean, no difference, no ratio; it ranks last.
            let pace = try await client.send(
                .get, "/v1/compare?groups=\(still),\(wide),\(flatLow)&metric=avg_pace_s_per_km", token: me)
            #expect(pace.status == .ok)
            #expect(pace.json["ranking"] as? [String] == [flatLow, wide, still])
            let stillStats = (pace.json["groups"] as? [JSONObject])?.first
            #expect(stillStats?["count"] as? Int == 0)
            #expect(stillStats?["mean"] is NSNull)
            for pair in Self.pairs(pace).prefix(2) {
                #expect(pair["mean_diff"] is NSNull)
                #expect(pair["ratio"] is NSNull)
                Self.expectNoWelch(pair)
            }

            // Moving time: the still group's mean is 0, so there is no ratio with it as b.
            let moving = try await client.send(
                .get, "/v1/compare?groups=\(wide),\(still)&metric=moving_time_s", token: me)
            let movingPair = Self.pairs(moving).first
            F.expectClose(movingPair?["mean_diff"], 450)
            #expect(movingPair?["ratio"] is NSNull)
            #expect(moving.json["ranking"] as? [String] == [still, wide])
            let reverse = try await client.send(
                .get, "/v1/compare?groups=\(still),\(wide)&metric=moving_time_s", token: me)
            F.expectClose(Self.pairs(reverse).first?["ratio"], 0)
            F.expectClose(Self.pairs(reverse).first?["mean_diff"], -450)
        }
    }

    @Test func badGroupListsAre400AndUnknownOrForeignGroupsAre404() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let a = try await Self.durationGroup(client, me, "A", [100, 200])
            let b = try await Self.durationGroup(client, me, "B", [150])
            let foreign = try await Self.durationGroup(client, other, "Theirs", [100])
            let many = (0..<51).map { String(format: "65f0c0ffee00000000%06x", $0) }

            let bad = [
                "/v1/compare", "/v1/compare?groups=", "/v1/compare?groups=\(a)", "/v1/compare?groups=\(a),\(a)",
                "/v1/compare?groups=\(a),\(b),\(a)", "/v1/compare?groups=\(a),,\(b)", "/v1/compare?groups=\(a),",
                "/v1/compare?groups=" + many.joined(separator: ","),
                "/v1/compare?groups=\(a),\(b)&metric=pace",
            ]
            for uri in bad {
                let response = try await client.send(.get, uri, token: me)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.errorCode == "invalid_request", "\(uri)")
            }
            let missing = [
                "/v1/compare?groups=\(a),\(F.madeUpGroup)", "/v1/compare?groups=\(a),\(foreign)",
                "/v1/compare?groups=\(foreign),\(a)", "/v1/compare?groups=\(a),nope",
                "/v1/compare?groups=" + many.prefix(50).joined(separator: ","),  // 50 is allowed: then unknown
            ]
            for uri in missing {
                let response = try await client.send(.get, uri, token: me)
                #expect(response.status == .notFound, "\(uri)")
                #expect(response.errorCode == "not_found", "\(uri)")
            }
            #expect(try await client.send(.get, "/v1/compare?groups=\(a),\(b)").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/compare?groups=\(a),\(b)", token: me).status == .ok)
        }
    }
}
