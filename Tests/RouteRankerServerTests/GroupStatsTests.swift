import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite struct GroupStatsTests {
    typealias F = GroupFixture

    /// One expected ranking line: route id, name, value, rank.
    struct Line {
        var route: String
        var name: String
        var value: Double
        var rank: Int
    }

    /// Expected figures of one metric.
    struct Expected {
        var ranking: [Line]
        var mean: Double?
        var median: Double?
        var min: Double?
        var max: Double?
        var stddev: Double?
        var totalDistanceM: Double
    }

    static func check(
        _ response: TestResponse, metric: String, _ expected: Expected,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let json = response.json
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        #expect(json["metric"] as? String == metric, sourceLocation: sourceLocation)
        #expect(json["count"] as? Int == expected.ranking.count, "\(metric) count", sourceLocation: sourceLocation)
        let figures: [(String, Double?)] = [
            ("mean", expected.mean), ("median", expected.median), ("min", expected.min), ("max", expected.max),
            ("stddev", expected.stddev), ("total_distance_m", expected.totalDistanceM),
        ]
        for (key, value) in figures {
            if let value {
                F.expectClose(json[key], value, "\(metric) \(key)", sourceLocation: sourceLocation)
            } else {
                #expect(json[key] is NSNull, "\(metric) \(key) should be null", sourceLocation: sourceLocation)
            }
        }
        let ranking = json["ranking"] as? [JSONObject] ?? []
        #expect(
            ranking.map { $0["route"] as? String } == expected.ranking.map(\.route), "\(metric) order",
            sourceLocation: sourceLocation)
        #expect(
            ranking.map { $0["rank"] as? Int } == expected.ranking.map(\.rank), "\(metric) ranks",
            sourceLocation: sourceLocation)
        #expect(
            ranking.map { $0["name"] as? String } == expected.ranking.map(\.name), "\(metric) names",
            sourceLocation: sourceLocation)
        for (line, item) in zip(expected.ranking, ranking) {
            F.expectClose(item["value"], line.value, "\(metric) value of \(line.name)", sourceLocation: sourceLocation)
        }
    }

    /// Mean and sample standard deviation, by the book.
    static func moments(_ values: [Double]) -> (mean: Double, stddev: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, (squares / Double(values.count - 1)).squareRoot())
    }

    @Test func everyMetricWithTiesNullsAndDirection() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            // Created out of name order, so that name order and id order differ.
            let two = F.leg(metres: 2000, seconds: 200)
            let one = F.leg(metres: 1000, seconds: 200)
            let slow = F.leg(metres: 1000, seconds: 300)
            let still = F.leg(metres: 10, seconds: 500)  // 0.02 m/s: never moving, so no pace
            let c = try await client.newGroupRoute(me, "Charlie", two)
            let b = try await client.newGroupRoute(me, "Bravo", one)
            let a = try await client.newGroupRoute(me, "Alpha", slow)
            let s = try await client.newGroupRoute(me, "Still", still)
            let group = try await client.newGroup(me, "Mixed", [a, s, c, b])
            let d1 = F.legLength(one)
            let d2 = F.legLength(two)
            let total = d2 + d1 + d1 + F.legLength(still)

            // duration_s, the default: 200, 200, 300, 500 → ranks 1, 1, 3, 4; even median.
            let duration = Expected(
                ranking: [
                    Line(route: b, name: "Bravo", value: 200, rank: 1),
                    Line(route: c, name: "Charlie", value: 200, rank: 1),
                    Line(route: a, name: "Alpha", value: 300, rank: 3),
                    Line(route: s, name: "Still", value: 500, rank: 4),
                ], mean: 300, median: 250, min: 200, max: 500, stddev: 20_000.0.squareRoot(), totalDistanceM: total)
            Self.check(try await client.groupStats(me, group), metric: "duration_s", duration)
            Self.check(try await client.groupStats(me, group, metric: "duration_s"), metric: "duration_s", duration)

            // moving_time_s: the still route moved for 0 s, a value (the best one).
            Self.check(
                try await client.groupStats(me, group, metric: "moving_time_s"), metric: "moving_time_s",
                Expected(
                    ranking: [
                        Line(route: s, name: "Still", value: 0, rank: 1),
                        Line(route: b, name: "Bravo", value: 200, rank: 2),
                        Line(route: c, name: "Charlie", value: 200, rank: 2),
                        Line(route: a, name: "Alpha", value: 300, rank: 4),
                    ], mean: 175, median: 200, min: 0, max: 300, stddev: (47_500.0 / 3).squareRoot(),
                    totalDistanceM: total))

            // avg_pace_s_per_km: the still route has none: out of count and ranking, not of the distance.
            let paces = [200 / (d2 / 1000), 200 / (d1 / 1000), 300 / (d1 / 1000)]
            let pace = Self.moments(paces)
            Self.check(
                try await client.groupStats(me, group, metric: "avg_pace_s_per_km"), metric: "avg_pace_s_per_km",
                Expected(
                    ranking: [
                        Line(route: c, name: "Charlie", value: paces[0], rank: 1),
                        Line(route: b, name: "Bravo", value: paces[1], rank: 2),
                        Line(route: a, name: "Alpha", value: paces[2], rank: 3),
                    ], mean: pace.mean, median: paces[1], min: paces[0], max: paces[2], stddev: pace.stddev,
                    totalDistanceM: total))

            // avg_speed_mps: higher is better; 0 for the still route (a value, unlike its pace).
            let speeds = [d2 / 200, d1 / 200, d1 / 300, 0]
            let speed = Self.moments(speeds)
            Self.check(
                try await client.groupStats(me, group, metric: "avg_speed_mps"), metric: "avg_speed_mps",
                Expected(
                    ranking: [
                        Line(route: c, name: "Charlie", value: speeds[0], rank: 1),
                        Line(route: b, name: "Bravo", value: speeds[1], rank: 2),
                        Line(route: a, name: "Alpha", value: speeds[2], rank: 3),
                        Line(route: s, name: "Still", value: 0, rank: 4),
                    ], mean: speed.mean, median: (speeds[1] + speeds[2]) / 2, min: 0, max: speeds[0],
                    stddev: speed.stddev, totalDistanceM: total))

            // distance_m: higher is better; Alpha and Bravo have the same points, so the same length.
            let lengths = [d2, d1, d1, F.legLength(still)]
            let length = Self.moments(lengths)
            Self.check(
                try await client.groupStats(me, group, metric: "distance_m"), metric: "distance_m",
                Expected(
                    ranking: [
                        Line(route: c, name: "Charlie", value: d2, rank: 1),
                        Line(route: a, name: "Alpha", value: d1, rank: 2),
                        Line(route: b, name: "Bravo", value: d1, rank: 2),
                        Line(route: s, name: "Still", value: lengths[3], rank: 4),
                    ], mean: length.mean, median: d1, min: lengths[3], max: d2, stddev: length.stddev,
                    totalDistanceM: total))

            for bad in ["speed", "DURATION_S", "", "duration_s,distance_m"] {
                let response = try await client.groupStats(me, group, metric: bad)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(response.errorCode == "invalid_request", "\(bad)")
            }
        }
    }

    @Test func tiesAreListedByNameThenIdAndSmallGroupsHaveNoSpread() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let leg = F.leg(metres: 1500, seconds: 600)
            let x = try await client.newGroupRoute(me, "Same", leg)
            let y = try await client.newGroupRoute(me, "Same", leg)
            let z = try await client.newGroupRoute(me, "Aaa", leg)
            let w = try await client.newGroupRoute(me, "Zzz", F.leg(metres: 1500, seconds: 700))
            let tied = try await client.newGroup(me, "Tied", [w, y, x, z])
            let sameNames = [x, y].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let d = F.legLength(leg)
            Self.check(
                try await client.groupStats(me, tied), metric: "duration_s",
                Expected(
                    ranking: [
                        Line(route: z, name: "Aaa", value: 600, rank: 1),
                        Line(route: sameNames[0], name: "Same", value: 600, rank: 1),
                        Line(route: sameNames[1], name: "Same", value: 600, rank: 1),
                        Line(route: w, name: "Zzz", value: 700, rank: 4),
                    ], mean: 625, median: 600, min: 600, max: 700, stddev: 50, totalDistanceM: 4 * d))

            // One route: every figure is its value; no standard deviation.
            let single = try await client.newGroup(me, "Single", [w])
            Self.check(
                try await client.groupStats(me, single, metric: "avg_speed_mps"), metric: "avg_speed_mps",
                Expected(
                    ranking: [Line(route: w, name: "Zzz", value: d / 700, rank: 1)], mean: d / 700,
                    median: d / 700, min: d / 700, max: d / 700, stddev: nil, totalDistanceM: d))

            // No route with a value: nothing but the distance.
            let still = try await client.newGroupRoute(me, "Still", F.leg(metres: 0, seconds: 60))
            let none = try await client.newGroup(me, "None", [still])
            Self.check(
                try await client.groupStats(me, none, metric: "avg_pace_s_per_km"), metric: "avg_pace_s_per_km",
                Expected(ranking: [], mean: nil, median: nil, min: nil, max: nil, stddev: nil, totalDistanceM: 0))
        }
    }

    @Test func sharedRoutesCountWhileSharedAndDeletedRoutesLeave() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let friend = try await client.register("friend", friends: ["me"])
            let theirs = try await client.newGroupRoute(friend, "Theirs", F.leg(metres: 1000, seconds: 250))
            let mine = try await client.newGroupRoute(me, "Mine", F.leg(metres: 1000, seconds: 350))
            let unshared = try await client.newGroupRoute(friend, "Unshared", F.leg(metres: 1000, seconds: 100))
            try await client.shareForGroup(friend, theirs, to: "me")
            let d = F.legLength(F.leg(metres: 1000, seconds: 250))

            let refused = try await client.postGroup(me, "G", [theirs, unshared])
            #expect(refused.status == .unprocessableContent)
            #expect(F.badIDs(refused) == [unshared])
            let group = try await client.newGroup(me, "G", [theirs, mine])
            var stats = try await client.groupStats(me, group)
            #expect(stats.json["count"] as? Int == 2)
            F.expectClose(stats.json["mean"], 300)

            // Unshared: out of the routes and the stats, but still a member.
            try await client.unshareForGroup(friend, theirs, from: "me")
            let one = try await client.send(.get, "/v1/groups/\(group)", token: me)
            #expect((one.json["routes"] as? [JSONObject])?.map { $0["id"] as? String } == [mine])
            let listed = F.items(try await client.send(.get, "/v1/groups", token: me))
            #expect(listed.first?["routes"] as? [String] == [mine])
            stats = try await client.groupStats(me, group)
            #expect(stats.json["count"] as? Int == 1)
            F.expectClose(stats.json["mean"], 350)
            F.expectClose(stats.json["total_distance_m"], d)
            #expect((stats.json["ranking"] as? [JSONObject])?.map { $0["route"] as? String } == [mine])
            let addHidden = try await client.send(
                .patch, "/v1/groups/\(group)", token: me, json: #"{"add":["\#(theirs)"]}"#)
            #expect(addHidden.status == .unprocessableContent)
            #expect(F.badIDs(addHidden) == [theirs])
            let renamed = try await client.send(.patch, "/v1/groups/\(group)", token: me, json: #"{"name":"G2"}"#)
            #expect(F.members(renamed) == [mine])

            // Shared again: back, in its place.
            try await client.shareForGroup(friend, theirs, to: "me")
            let back = try await client.send(.patch, "/v1/groups/\(group)", token: me, json: "{}")
            #expect(F.members(back) == [theirs, mine])
            #expect(back.json["name"] as? String == "G2")
            stats = try await client.groupStats(me, group)
            #expect(stats.json["count"] as? Int == 2)
            F.expectClose(stats.json["total_distance_m"], 2 * d)

            // Deleted routes leave the group for good.
            #expect(try await client.send(.delete, "/v1/routes/\(theirs)", token: friend).status == .noContent)
            #expect(try await client.send(.delete, "/v1/routes/\(mine)", token: me).status == .noContent)
            #expect(F.members(try await client.send(.patch, "/v1/groups/\(group)", token: me, json: "{}")).isEmpty)
            stats = try await client.groupStats(me, group)
            #expect(stats.json["count"] as? Int == 0)
            #expect(stats.json["mean"] is NSNull)
            F.expectClose(stats.json["total_distance_m"], 0)
        }
    }
}
