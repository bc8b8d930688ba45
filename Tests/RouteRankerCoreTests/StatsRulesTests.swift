import Foundation
import Testing

@testable import RouteRankerCore

/// API.md "Stats" and "Meaning", one rule at a time, on hand-built routes.
@Suite struct StatsRulesTests {
    @Test func emptyRouteHasAPIShape() throws {
        let stats = StatsAccumulator(activity: .run).stats
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(stats), as: UTF8.self)
        #expect(
            json == """
                {"avg_pace_s_per_km":null,"avg_speed_mps":0,"bbox":null,"distance_m":0,"duration_s":0,\
                "elevation_gain_m":null,"elevation_loss_m":null,"end":null,"max_speed_mps":0,"moving_time_s":0,\
                "params":{"elevation_hysteresis_m":5,"max_speed_mps":12,"moving_threshold_mps":0.5},"points":0,\
                "splits":[],"start":null}
                """)
        #expect(try JSONDecoder().decode(RouteStats.self, from: Data(json.utf8)) == stats)
    }

    @Test func fullStatsEncodeEveryField() throws {
        var b = RouteBuilder(ele: 100)
        for _ in 0..<30 { b.step(40, after: 10, ele: b.last.ele! + 1) }
        let (acc, _) = Routes.stats(b.points, .ride)
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(acc.stats)) as? [String: Any])
        #expect(Set(object.keys).count == 14)
        #expect(try #require(object["bbox"] as? [Double]).count == 4)
        #expect(Set(try #require(object["start"] as? [String: Any]).keys) == ["lat", "lon", "t"])
        let split = try #require((object["splits"] as? [[String: Any]])?.first)
        #expect(Set(split.keys) == ["km", "time_s", "pace_s_per_km"])
        #expect(acc.stats.params == Activity.ride.parameters)
    }

    @Test func distanceDurationAndAverages() {
        var b = RouteBuilder()
        b.step(100, after: 50)
        b.step(0, after: 30)  // standing still: not moving
        b.step(200, after: 100)
        let s = Routes.stats(b.points, .walk).0.stats
        #expect(abs(s.distanceM - 300) < 1e-6)
        #expect(s.durationS == 180)
        #expect(s.movingTimeS == 150)
        #expect(s.avgSpeedMps == s.distanceM / 150)
        #expect(s.avgPaceSPerKm == 150 / (s.distanceM / 1000))
        #expect(s.points == 4)
    }

    @Test func paceIsNullWithoutDistanceOrMovement() {
        var b = RouteBuilder()
        b.step(0, after: 20)
        let s = Routes.stats(b.points).0.stats
        #expect(s.avgPaceSPerKm == nil && s.avgSpeedMps == 0 && s.movingTimeS == 0)
    }

    @Test(arguments: Activity.allCases)
    func movingThresholdIsInclusive(activity: Activity) {
        let p = TrackPoint(lat: 10, lon: 10, t: 1_000)
        var q = RouteBuilder.point(from: p, metres: 3, after: 3 / activity.movingThreshold)
        let d = Geodesic.distance(from: p.coordinate, to: q.coordinate)
        while d / (q.t - p.t) < activity.movingThreshold { q.t = q.t.nextDown }
        while d / (q.t.nextUp - p.t) >= activity.movingThreshold { q.t = q.t.nextUp }
        #expect(Routes.stats([p, q], activity).0.stats.movingTimeS == q.t - p.t)
        q.t = q.t.nextUp  // a hair slower
        #expect(Routes.stats([p, q], activity).0.stats.movingTimeS == 0)
    }

    @Test func maxSpeedNeedsTenSecondsAndExactlyTenCounts() {
        var b = RouteBuilder()
        b.step(50, after: 9.999)
        #expect(Routes.stats(b.points).0.stats.maxSpeedMps == 0)
        b = RouteBuilder()
        b.step(50, after: 10)
        let d = Geodesic.distance(from: b.points[0].coordinate, to: b.points[1].coordinate)
        #expect(Routes.stats(b.points).0.stats.maxSpeedMps == d / 10)
    }

    @Test func maxSpeedIsOverAllRunsNotOnlyTheShortest() {
        // Fast 4 s, then 1 s steps at walking pace: no 10 s run is as fast as the burst, but the
        // best 10 s run is the one containing it.
        var b = RouteBuilder()
        for _ in 0..<20 { b.step(1, after: 1) }
        b.step(60, after: 4)
        for _ in 0..<20 { b.step(1, after: 1) }
        let s = Routes.stats(b.points).0.stats
        #expect(abs(s.maxSpeedMps - Routes.bruteForceMaxSpeed(b.points)) <= 1e-12 * s.maxSpeedMps)
        #expect(abs(s.maxSpeedMps - 66.0 / 10) < 1e-6)
    }

    @Test func maxSpeedAcrossALongGap() {
        // 1 Hz, a 600 s gap covered at 20 m/s, 1 Hz again: the only ≥ 10 s runs over the gap span it.
        var b = RouteBuilder()
        for _ in 0..<5 { b.step(1, after: 1) }
        b.step(12_000, after: 600)
        for _ in 0..<5 { b.step(1, after: 1) }
        let s = Routes.stats(b.points).0.stats
        #expect(abs(s.maxSpeedMps - Routes.bruteForceMaxSpeed(b.points)) <= 1e-12 * s.maxSpeedMps)
        #expect(s.maxSpeedMps > 19.9)
    }

    @Test func maxSpeedMatchesBruteForceOnIrregularSampling() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            var b = RouteBuilder()
            for _ in 0..<Int.random(in: 2...80, using: &rng) {
                let dt = [0.1, 0.5, 1, 3, 9.99, 10, 15, 120].randomElement(using: &rng)!
                b.step(Double.random(in: 0...(dt * 30), using: &rng), after: dt)
            }
            let (acc, r) = Routes.stats(b.points)
            let expected = Routes.bruteForceMaxSpeed(r.kept)
            #expect(abs(acc.stats.maxSpeedMps - expected) <= 1e-12 * expected)
            #expect(acc.window.times.count <= 2 + r.kept.count)
        }
    }

    @Test func windowStaysSmallAtOneHertz() {
        var b = RouteBuilder()
        var acc = StatsAccumulator(activity: .run)
        for _ in 0..<5_000 {
            b.step(3, after: 1)
            _ = acc.ingest([b.last])
        }
        #expect(acc.window.times.count <= 22)
    }

    @Test func elevationHysteresisUpAndDown() {
        let eles: [Double?] = [100, 104.9, 105, 103, 100.1, 100, 99, nil, 94, 99.5, 98, 120]
        var b = RouteBuilder(ele: eles[0])
        for e in eles.dropFirst() { b.step(2, after: 2, ele: e) }
        let s = Routes.stats(b.points).0.stats
        // 100 → 105 (+5); 105 → 100 (−5); 100 → 94 (−6); 94 → 99.5 (+5.5); 99.5 → 120 (+20.5)
        #expect(s.elevationGainM == 5 + 5.5 + 20.5)
        #expect(s.elevationLossM == 11.0)  // 5 + 6
    }

    @Test func elevationStartsAtTheFirstEleAndIsNullWithoutAny() {
        var b = RouteBuilder()
        b.step(2, after: 2)
        #expect(Routes.stats(b.points).0.stats.elevationGainM == nil)
        b.step(2, after: 2, ele: 300)
        b.step(2, after: 2, ele: 304)
        let s = Routes.stats(b.points).0.stats
        #expect(s.elevationGainM == 0 && s.elevationLossM == 0)
    }

    @Test func splitsAtExactBoundaries() {
        // Steps of 250 m (to ~1e-10 m): every fourth point sits on a km boundary.
        var b = RouteBuilder(lat: 0, lon: 0, t: 1_000)
        for _ in 0..<8 { b.step(250, after: 60) }
        let (acc, r) = Routes.stats(b.points, .run)
        #expect(r.accepted == 9)
        let s = acc.stats
        #expect(s.splits.count == Int(s.distanceM / 1000))
        for split in s.splits {
            #expect(abs(split.timeS - 240) < 1e-6)
            #expect(split.paceSPerKm == split.timeS)
        }
        #expect(s.splits.map(\.km) == Array(1...s.splits.count))
    }

    @Test func splitTimeIsThePointTimeWhenDistanceLandsOnTheBoundary() {
        // Interpolating would give 0.1 + 1 × 0.6, which need not be 0.7 in doubles.
        var acc = StatsAccumulator(activity: .run)
        acc.addSplits(from: 999.9, 0.1, to: 1000, 0.7)
        #expect(acc.splits == [0.7])
        acc.addSplits(from: 1000, 0.7, to: 3000, 1.7)  // two boundaries in one step, the second exact
        #expect(acc.splits == [0.7, 0.7 + 0.5 - 0.7, 1.7 - (0.7 + 0.5)])
    }

    @Test func splitsInterpolateLinearlyAlongDistance() {
        // 400 m in 100 s, then one 1,700 m step in 100 s crossing km 1 and km 2.
        var b = RouteBuilder(lat: 0, lon: 0, t: 0.5)
        b.step(400, after: 100)
        b.step(1_700, after: 100)
        let d1 = Geodesic.distance(from: b.points[0].coordinate, to: b.points[1].coordinate)
        let d2 = Geodesic.distance(from: b.points[1].coordinate, to: b.points[2].coordinate)
        let km1 = 100.5 + (1000 - d1) / d2 * 100
        let km2 = 100.5 + (2000 - d1) / d2 * 100
        let s = Routes.stats(b.points, .ride).0.stats.splits
        #expect(s.count == 2)
        #expect(abs(s[0].timeS - (km1 - 0.5)) < 1e-9)
        #expect(abs(s[1].timeS - (km2 - km1)) < 1e-9)
        #expect(abs(s[1].timeS - 1000 / d2 * 100) < 1e-9)
    }
}
