import Foundation
import Testing

@testable import RouteRankerCore

/// API.md "Groups and comparison" rules on hand-computed examples.
@Suite struct GroupStatisticsTests {
    static func member(_ id: String, _ name: String, _ value: Double?) -> GroupMember {
        GroupMember(id: id, name: name, value: value)
    }

    @Test func metricsReadTheStatsAndKnowTheirDirection() {
        var stats = RouteStats.empty(activity: .run)
        stats.durationS = 100
        stats.movingTimeS = 90
        stats.distanceM = 300
        stats.avgSpeedMps = 300 / 90
        #expect(GroupMetric.default == .durationS)
        #expect(GroupMetric(rawValue: "avg_pace_s_per_km") == .avgPaceSPerKm)
        #expect(GroupMetric.allCases.map(\.rawValue).count == 5)
        #expect(GroupMetric.durationS.value(of: stats) == 100)
        #expect(GroupMetric.movingTimeS.value(of: stats) == 90)
        #expect(GroupMetric.distanceM.value(of: stats) == 300)
        #expect(GroupMetric.avgPaceSPerKm.value(of: stats) == nil)
        #expect(GroupMetric.allCases.filter(\.higherIsBetter) == [.avgSpeedMps, .distanceM])
    }

    @Test func statsOfAGroupWithTiesAndNulls() throws {
        let members = [
            Self.member("r1", "b", 30), Self.member("r2", "a", 10), Self.member("r3", "c", nil),
            Self.member("r4", "a", 20), Self.member("r5", "a", 20), Self.member("r0", "z", 20),
        ]
        let s = GroupStatistics(members: members, metric: .durationS)
        #expect(s.count == 5)
        #expect(s.mean == 20)
        #expect(s.median == 20)
        #expect(s.min == 10 && s.max == 30)
        // Deviations −10, 0, 0, 0, 10: variance 200/4 = 50.
        #expect(try #require(s.stddev) == 50.0.squareRoot())
        #expect(s.ranking.map(\.id) == ["r2", "r4", "r5", "r0", "r1"])
        #expect(s.ranking.map(\.rank) == [1, 2, 2, 2, 5])
        // Higher is better: reversed values, ties still by name then id.
        let h = GroupStatistics(members: members, metric: .distanceM)
        #expect(h.ranking.map(\.id) == ["r1", "r4", "r5", "r0", "r2"])
        #expect(h.ranking.map(\.rank) == [1, 2, 2, 2, 5])
    }

    @Test func evenMedianSingleRouteAndEmptyGroup() {
        let even = GroupStatistics(
            members: [1, 4, 2, 10].enumerated().map { Self.member("\($0)", "n", $1) }, metric: .durationS)
        #expect(even.median == 3)
        let one = GroupStatistics(members: [Self.member("x", "x", 7)], metric: .durationS)
        #expect(one.count == 1 && one.mean == 7 && one.median == 7 && one.stddev == nil)
        #expect(one.ranking == [RankedItem(id: "x", name: "x", value: 7, rank: 1)])
        let none = GroupStatistics(members: [Self.member("x", "x", nil)], metric: .avgPaceSPerKm)
        #expect(none.count == 0 && none.mean == nil && none.median == nil && none.min == nil)
        #expect(none.max == nil && none.stddev == nil && none.ranking.isEmpty)
    }

    @Test func tiesAreOrderedByCodePointNotSwiftStringOrder() {
        // "é" precomposed (U+00E9) against "e" + combining acute (U+0065 U+0301): Swift's `==`
        // calls them equal; by code point U+0065… comes first. And "Z" (U+005A) < "a" (U+0061).
        let members = [
            Self.member("2", "\u{E9}", 5), Self.member("1", "e\u{301}", 5), Self.member("3", "a", 5),
            Self.member("4", "Z", 5), Self.member("b", "same", 5), Self.member("B", "same", 5),
        ]
        let s = GroupStatistics(members: members, metric: .durationS)
        #expect(s.ranking.map(\.id) == ["4", "3", "1", "B", "b", "2"])
        #expect(Set(s.ranking.map(\.rank)) == [1])
    }

    @Test func groupOrderPutsGroupsWithoutValuesLast() {
        let groups = [
            Self.member("g1", "slow", 300), Self.member("g2", "none", nil), Self.member("g3", "fast", 200),
            Self.member("g4", "also none", nil),
        ]
        #expect(Ranking.order(groups, higherIsBetter: false) == ["g3", "g1", "g4", "g2"])
        #expect(Ranking.order(groups, higherIsBetter: true) == ["g1", "g3", "g4", "g2"])
    }

    @Test func pairComparison() throws {
        let a = GroupStatistics(
            members: [10.0, 12, 14].map { (v: Double) in Self.member(String(v), "n", v) }, metric: .durationS)
        let b = GroupStatistics(
            members: [20.0, 21].map { (v: Double) in Self.member(String(v), "n", v) }, metric: .durationS)
        let p = PairComparison(a, b)
        #expect(p.meanDiff == 12 - 20.5)
        #expect(p.ratio == 12 / 20.5)
        let w = try #require(p.welch)
        // var(a) = 4, var(b) = 0.5: se² = 4/3 + 1/4 = 19/12; df = se⁴ / ((4/3)²/2 + (1/4)²/1).
        #expect(abs(w.t - (-8.5 / (19.0 / 12).squareRoot())) < 1e-14)
        #expect(abs(w.df - (19.0 / 12) * (19.0 / 12) / ((16.0 / 9) / 2 + 1.0 / 16)) < 1e-13)
        let zero = GroupStatistics(members: [Self.member("z", "z", 0)], metric: .durationS)
        let q = PairComparison(a, zero)
        #expect(q.meanDiff == 12 && q.ratio == nil && q.welch == nil)
        let empty = GroupStatistics(members: [], metric: .durationS)
        let r = PairComparison(empty, a)
        #expect(r.meanDiff == nil && r.ratio == nil && r.welch == nil)
    }

    @Test func welchEdgeCases() throws {
        #expect(WelchTest.compare(a: [1], b: [1, 2, 3]) == nil)
        #expect(WelchTest.compare(a: [1, 2], b: [3]) == nil)
        #expect(WelchTest.compare(a: [5, 5, 5], b: [7, 7]) == nil)  // both variances 0
        #expect(WelchTest.compare(a: [3600.1, 3600.1], b: [3600.1, 3600.1, 3600.1]) == nil)
        let oneConstant = try #require(WelchTest.compare(a: [5, 5, 5], b: [6, 7, 8]))
        #expect(oneConstant.t == -2 / (1.0 / 3).squareRoot() && oneConstant.df == 2)
        let same = try #require(WelchTest.compare(a: [1, 2, 3], b: [0, 2, 4]))
        #expect(same.t == 0 && same.pValue == 1)
        let far = try #require(WelchTest.compare(a: [0, 1, 0, 1], b: [1e9, 1e9 + 1, 1e9, 1e9 + 1]))
        #expect(far.pValue > 0 && far.pValue < 1e-20)
        let json = String(decoding: try JSONEncoder().encode(WelchResult(t: 1, df: 2, pValue: 0.5)), as: UTF8.self)
        #expect(json.contains("\"p_value\":0.5"))
    }

    @Test func incompleteBetaEdges() {
        #expect(IncompleteBeta.regularized(a: 2, b: 3, x: 0) == 0)
        #expect(IncompleteBeta.regularized(a: 2, b: 3, x: 1) == 1)
        #expect(IncompleteBeta.regularized(a: 0, b: 3, x: 0.5).isNaN)
        #expect(IncompleteBeta.regularized(a: 1, b: 1, x: 1.5).isNaN)
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b.
        #expect(abs(IncompleteBeta.regularized(a: 1, b: 1, x: 0.3) - 0.3) < 1e-15)
        #expect(abs(IncompleteBeta.regularized(a: 3, b: 1, x: 0.5) - 0.125) < 1e-15)
        #expect(abs(IncompleteBeta.regularized(a: 1, b: 2, x: 0.5) - 0.75) < 1e-15)
        #expect(IncompleteBeta.studentTTwoSided(t: 0, df: 3) == 1)
        #expect(IncompleteBeta.studentTTwoSided(t: -.infinity, df: 3) == 0)
        // df = 1 is the Cauchy distribution: P(|T| ≥ t) = 1 − 2·atan(t)/π, ~2/(π·t) far out.
        let p = IncompleteBeta.studentTTwoSided(t: 1e200, df: 1)
        #expect(abs(p / (2 / (Double.pi * 1e200)) - 1) < 1e-12)
        #expect(abs(IncompleteBeta.studentTTwoSided(t: 1, df: 1) - 0.5) < 1e-15)
    }
}
