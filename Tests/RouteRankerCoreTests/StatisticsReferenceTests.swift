import Foundation
import Testing

@testable import RouteRankerCore

/// Group statistics, Welch's test and the incomplete beta function against scipy/numpy
/// (Data/statistics-references.json, made by scripts/make-reference-statistics).
///
/// Tolerance: 1e-9 relative, as the issue asks. Below 1e-290 the reference itself is near or in
/// the subnormal range, where doubles carry fewer significant bits, so there an absolute 1e-300
/// is asked instead (a p-value that small is 0 for every purpose). Observed worst errors: Welch
/// p 5e-12, t 4e-11 (the mean difference cancels where the means are close), df 6e-16; the
/// t tail 1e-11; group stats 5e-16; the incomplete beta 9e-10, only at the extreme corner
/// a = 1e7, b = 1e-3 at the switch point, where 1 − I_y(b, a) = 2e-4 amplifies a 2e-13 error
/// of I_y (for the t distribution, b = ½, the subtraction only happens for p ≳ 0.1).
@Suite struct StatisticsReferenceTests {
    struct References: Decodable {
        var welch: [WelchCase]
        var betainc: [BetaCase]
        var studentT: [TCase]
        var groups: [GroupCase]

        enum CodingKeys: String, CodingKey {
            case welch, betainc, groups
            case studentT = "student_t"
        }
    }
    struct WelchCase: Decodable {
        var kind: String
        var a: [Double]
        var b: [Double]
        var t: Double
        var df: Double
        var p: Double
    }
    struct BetaCase: Decodable {
        var a: Double
        var b: Double
        var x: Double
        var value: Double
    }
    struct TCase: Decodable {
        var t: Double
        var df: Double
        var p: Double
    }
    struct GroupCase: Decodable {
        var values: [Double?]
        var count: Int
        var mean: Double?
        var median: Double?
        var min: Double?
        var max: Double?
        var stddev: Double?
    }

    static let references: References = {
        try! JSONDecoder().decode(References.self, from: TestData.data("statistics-references.json"))
    }()

    /// |got − want| relative to |want|, or absolute below 1e-290 (see the suite's comment).
    static func error(_ got: Double, _ want: Double) -> Double {
        if got == want { return 0 }
        if abs(want) < 1e-290 { return abs(got - want) <= 1e-300 ? 0 : .infinity }
        return abs(got - want) / abs(want)
    }

    @Test func incompleteBetaMatchesScipy() {
        var worst = (0.0, "")
        for c in Self.references.betainc {
            let got = IncompleteBeta.regularized(a: c.a, b: c.b, x: c.x)
            let e = Self.error(got, c.value)
            if e > worst.0 { worst = (e, "a=\(c.a) b=\(c.b) x=\(c.x) got \(got) want \(c.value)") }
        }
        #expect(worst.0 <= 1e-9, "\(worst)")
        #expect(Self.references.betainc.count > 4000)
    }

    @Test func studentTTailMatchesScipy() {
        var worst = (0.0, "")
        for c in Self.references.studentT {
            let got = IncompleteBeta.studentTTwoSided(t: c.t, df: c.df)
            let e = Self.error(got, c.p)
            if e > worst.0 { worst = (e, "t=\(c.t) df=\(c.df) got \(got) want \(c.p)") }
        }
        #expect(worst.0 <= 1e-9, "\(worst)")
    }

    @Test func welchMatchesScipy() throws {
        var worst = (t: 0.0, df: 0.0, p: 0.0, note: "")
        for c in Self.references.welch {
            let r = try #require(WelchTest.compare(a: c.a, b: c.b), "\(c.kind) \(c.a) \(c.b)")
            // t = 0 exactly when the means are equal; elsewhere relative.
            let et = c.t == 0 ? abs(r.t) : Self.error(r.t, c.t)
            let edf = Self.error(r.df, c.df)
            let ep = Self.error(r.pValue, c.p)
            if et > worst.t || edf > worst.df || ep > worst.p {
                worst.note = "\(c.kind): t \(r.t)/\(c.t) df \(r.df)/\(c.df) p \(r.pValue)/\(c.p)"
            }
            worst = (max(worst.t, et), max(worst.df, edf), max(worst.p, ep), worst.note)
        }
        #expect(worst.t <= 1e-9 && worst.df <= 1e-9 && worst.p <= 1e-9, "\(worst)")
        #expect(Self.references.welch.count > 400)
    }

    @Test func groupStatisticsMatchNumpy() {
        var worst = (0.0, "")
        for (i, c) in Self.references.groups.enumerated() {
            let members = c.values.enumerated().map { GroupMember(id: "r\($0.offset)", name: "n", value: $0.element) }
            let s = GroupStatistics(members: members, metric: .durationS)
            #expect(s.count == c.count)
            #expect(s.ranking.count == c.count)
            let pairs: [(Double?, Double?, String)] = [
                (s.mean, c.mean, "mean"), (s.median, c.median, "median"), (s.min, c.min, "min"),
                (s.max, c.max, "max"), (s.stddev, c.stddev, "stddev"),
            ]
            for (got, want, what) in pairs {
                #expect((got == nil) == (want == nil), "case \(i) \(what)")
                guard let got, let want else { continue }
                let e = want == 0 ? abs(got) : Self.error(got, want)
                if e > worst.0 { worst = (e, "case \(i) \(what) got \(got) want \(want)") }
            }
        }
        // Mean and stddev to 1e-12 relative: both sides are accurate to a few ulps.
        #expect(worst.0 <= 1e-12, "\(worst)")
    }
}
