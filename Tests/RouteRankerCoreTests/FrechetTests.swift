import Foundation
import Testing

@testable import RouteRankerCore

/// The discrete Fréchet distance behind `similar` (API.md "Same route, ranked").
@Suite struct FrechetTests {
    static let start = Coordinate(lat: 46.05, lon: 14.5)

    /// Raw points every ~`step` m along legs (azimuth, metres), with lateral noise up to `noise` m.
    static func route(
        _ legs: [(Double, Double)], from origin: Coordinate = start, step: Double = 5, noise: Double = 0,
        seed: UInt64 = 1
    ) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        var clean = origin
        var points = [origin]
        for (azimuth, length) in legs {
            var done = 0.0
            while done < length {
                let s = min(step, length - done)
                clean = Geodesic.direct(from: clean, azimuth: azimuth, distance: s)
                done += s
                let offset = Double.random(in: -noise...noise, using: &rng)
                points.append(
                    noise == 0 ? clean : Geodesic.direct(from: clean, azimuth: azimuth + 90, distance: offset))
            }
        }
        return points
    }

    static func path(_ points: [Coordinate]) -> ResampledPath { ResampledPath.resample(points) }

    /// The definition, on the full table (memoised recursion, row by row).
    static func bruteForce(_ p: ResampledPath, _ q: ResampledPath) -> Double {
        var c = [[Double]](repeating: [Double](repeating: 0, count: q.count), count: p.count)
        for i in 0..<p.count {
            for j in 0..<q.count {
                let d = Geodesic.distance(from: p[i], to: q[j])
                switch (i, j) {
                case (0, 0): c[i][j] = d
                case (0, _): c[i][j] = max(d, c[0][j - 1])
                case (_, 0): c[i][j] = max(d, c[i - 1][0])
                default: c[i][j] = max(d, min(c[i - 1][j], c[i - 1][j - 1], c[i][j - 1]))
                }
            }
        }
        return c[p.count - 1][q.count - 1]
    }

    static let eastThenNorth: [(Double, Double)] = [(90, 500), (0, 500)]

    @Test func samePathWithLateralNoiseIsSimilar() throws {
        let clean = Self.path(Self.route(Self.eastThenNorth))
        let noisy = Self.path(Self.route(Self.eastThenNorth, step: 3, noise: 4, seed: 9))
        let d = try #require(DiscreteFrechet.distance(clean, noisy, bound: 50))
        #expect(d < 15)
        #expect(DiscreteFrechet.isWithin(noisy, clean, maxDistance: 50) == d)
        #expect(DiscreteFrechet.distance(clean, clean, bound: 50) == 0)
    }

    @Test func reversedPathIsNotSimilar() {
        let forward = Self.route(Self.eastThenNorth)
        #expect(DiscreteFrechet.distance(Self.path(forward), Self.path(forward.reversed()), bound: 50) == nil)
        // Even with start and end at the same place (a loop), the reverse is far in between.
        let loop = Self.route([(90, 400), (0, 400), (270, 400), (180, 400)])
        #expect(DiscreteFrechet.distance(Self.path(loop), Self.path(loop.reversed()), bound: 50) == nil)
        #expect(DiscreteFrechet.distance(Self.path(loop), Self.path(loop.reversed())) ?? 0 > 300)
    }

    @Test func otherPathBetweenTheSameEndsIsNotSimilar() throws {
        let a = Self.path(Self.route(Self.eastThenNorth))
        let b = Self.path(Self.route([(0, 500), (90, 500)]))
        #expect(Geodesic.distance(from: a[a.count - 1], to: b[b.count - 1]) < 1)
        #expect(DiscreteFrechet.distance(a, b, bound: 50) == nil)
        #expect(try #require(DiscreteFrechet.distance(a, b)) > 300)
    }

    @Test func longerRouteContainingThePathIsNotSimilar() {
        let a = Self.path(Self.route(Self.eastThenNorth))
        let longer = Self.path(Self.route(Self.eastThenNorth + [(0, 300)]))
        #expect(DiscreteFrechet.distance(a, longer, bound: 50) == nil)
        #expect(DiscreteFrechet.distance(longer, a, bound: 50) == nil)
    }

    @Test func emptyPathsAreNeverSimilar() {
        let a = Self.path(Self.route(Self.eastThenNorth))
        #expect(DiscreteFrechet.distance(a, ResampledPath(), bound: 50) == nil)
        #expect(DiscreteFrechet.distance(ResampledPath(), ResampledPath()) == nil)
        let point = Self.path([Self.start])
        #expect(DiscreteFrechet.distance(point, point, bound: 0) == 0)
    }

    @Test func agreesWithTheDefinitionOnRandomPaths() {
        var rng = SeededGenerator(seed: 5)
        for trial in 0..<60 {
            let legs = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                (Double.random(in: 0..<360, using: &rng), Double.random(in: 5...120, using: &rng))
            }
            let p = Self.path(Self.route(legs, noise: .random(in: 0...20, using: &rng), seed: UInt64(trial)))
            let otherLegs = trial % 3 == 0 ? legs.map { ($0.0 + 20, $0.1) } : legs
            let q = Self.path(Self.route(otherLegs, step: 7, noise: .random(in: 0...20, using: &rng), seed: 99))
            let exact = Self.bruteForce(p, q)
            #expect(DiscreteFrechet.distance(p, q) == exact, "trial \(trial)")
            #expect(DiscreteFrechet.distance(q, p) == exact, "trial \(trial)")
            for bound in [exact * 0.999, exact, exact * 1.001, 50] {
                #expect(DiscreteFrechet.distance(p, q, bound: bound) == (exact <= bound ? exact : nil))
            }
        }
    }

    @Test func overTheCellLimitThePathsAreThinnedWithinTheStatedError() throws {
        // Laps of a small square: everything is within the bound, so the whole table fills.
        let square: [(Double, Double)] = [(90, 40), (0, 40), (270, 40), (180, 40)]
        let p = Self.path(Self.route(Array(repeating: square, count: 5).flatMap { $0 }, noise: 2, seed: 3))
        let q = Self.path(Self.route(Array(repeating: square, count: 5).flatMap { $0 }, noise: 2, seed: 4))
        let exact = try #require(DiscreteFrechet.distance(p, q, bound: 100))
        let limit = 2_000
        let k = Int((Double(p.count * q.count) / Double(limit)).squareRoot().rounded(.up))
        var scanned = 0
        let approx = try #require(DiscreteFrechet.distance(p, q, bound: 100, cellLimit: limit, scanned: &scanned))
        let (outer, inner) = p.count >= q.count ? (p, q) : (q, p)
        var ignored = 0
        #expect(DiscreteFrechet.search(outer, inner, bound: 100, cellLimit: limit, scanned: &ignored) == .overLimit)
        #expect(DiscreteFrechet.search(outer, inner, bound: 100, cellLimit: .max, scanned: &ignored) == .found(exact))
        #expect(abs(approx - exact) <= 10 * Double(k + 1))
        // The work is reported, and bounded by about twice the limit (the first try, then the thinned one).
        #expect(scanned > limit && scanned <= 2 * limit + outer.count + inner.count)
    }
}
