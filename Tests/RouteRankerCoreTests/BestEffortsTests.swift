import Foundation
import Testing

@testable import RouteRankerCore

/// Best efforts (API.md "Best efforts, records and the training log"): the two-pointer pass
/// against a brute force over every candidate, hand-computed cases and invariants.
@Suite struct BestEffortsTests {
    static let t0 = 1_700_000_000.0

    // MARK: - Reference

    /// The rule written out directly: every candidate stretch evaluated on its own, with binary
    /// searches and explicit max/min over the points sharing a position.
    enum Reference {
        /// When position `x` is passed by a stretch starting there: the latest time of the points
        /// at `x`, else interpolated in the segment holding it.
        static func startTime(_ x: Double, _ d: [Double], _ t: [Double]) -> Double {
            var lo = 0  // the last index with d <= x
            var hi = d.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if d[mid] <= x { lo = mid } else { hi = mid - 1 }
            }
            if d[lo] == x {
                var latest = t[lo]
                var k = lo
                while k > 0 && d[k - 1] == x {
                    k -= 1
                    latest = max(latest, t[k])
                }
                return latest
            }
            return t[lo] + (x - d[lo]) / (d[lo + 1] - d[lo]) * (t[lo + 1] - t[lo])
        }

        /// When position `y` is passed by a stretch ending there: the earliest time of the points
        /// at `y`, else interpolated in the segment holding it.
        static func endTime(_ y: Double, _ d: [Double], _ t: [Double]) -> Double {
            var lo = 0  // the first index with d >= y
            var hi = d.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if d[mid] >= y { hi = mid } else { lo = mid + 1 }
            }
            if d[lo] == y {
                var earliest = t[lo]
                var k = lo
                while k < d.count - 1 && d[k + 1] == y {
                    k += 1
                    earliest = min(earliest, t[k])
                }
                return earliest
            }
            return t[lo - 1] + (y - d[lo - 1]) / (d[lo] - d[lo - 1]) * (t[lo] - t[lo - 1])
        }

        struct Outcome {
            var effort: BestEffort?
            /// The least exact elapsed time over all candidates (not the tie rule's pick).
            var exactMinimum = Double.infinity
        }

        /// Every start at a point and every end at a point, the best by (rounded elapsed, start, x).
        static func best(_ length: Double, _ d: [Double], _ t: [Double]) -> Outcome {
            guard let n = d.indices.last, d[0] + length <= d[n] else { return Outcome() }
            var candidates: [(x: Double, y: Double)] = []
            for v in d {
                if v + length <= d[n] { candidates.append((v, v + length)) }
                if v - length >= d[0] { candidates.append((v - length, v)) }
            }
            var result = Outcome()
            var key = (units: Double.infinity, start: 0.0, x: 0.0)
            for (x, y) in candidates {
                let start = startTime(x, d, t)
                let end = endTime(y, d, t)
                let units = ((end - start) * 1000).rounded()
                result.exactMinimum = min(result.exactMinimum, end - start)
                if (units, start, x) < key {
                    key = (units, start, x)
                    result.effort = BestEffort(
                        distance: "", distanceMetres: length, elapsed: end - start, startT: start, endT: end)
                }
            }
            return result
        }
    }

    // MARK: - Random routes

    /// A route as arrays: pauses (repeated positions, later times), repeated times (a zero-time
    /// step, with or without moving), fast stretches and ordinary ones. `integral` routes use
    /// whole metres and seconds, so that ends land exactly on points and elapsed times tie.
    static func randomRoute(
        _ rng: inout SeededGenerator, points: Int, integral: Bool
    ) -> (d: [Double], t: [Double]) {
        var d = [0.0]
        var t = [t0 + (integral ? 0 : Double.random(in: 0..<1, using: &rng))]
        var fast = false
        for _ in 1..<max(points, 1) {
            if Double.random(in: 0..<1, using: &rng) < 0.1 { fast.toggle() }
            var step: Double
            var dt: Double
            switch Double.random(in: 0..<1, using: &rng) {
            case ..<0.15:  // a pause
                step = 0
                dt = Double.random(in: 0.5...120, using: &rng)
            case ..<0.2:  // the same time again, moved or not
                step = Bool.random(using: &rng) ? 0 : Double.random(in: 0...20, using: &rng)
                dt = 0
            default:
                step = Double.random(in: 0.5...40, using: &rng)
                dt = step / (fast ? Double.random(in: 15...30, using: &rng) : Double.random(in: 1.5...6, using: &rng))
            }
            if integral {
                step = step.rounded()
                dt = dt == 0 ? 0 : max(1, dt.rounded())
            }
            d.append(d[d.count - 1] + step)
            t.append(t[t.count - 1] + dt)
        }
        return (d, t)
    }

    static let customLengths: [Double] = [1, 7, 37.5, 100, 250, 999.999]

    /// Checks one distance against the reference and the rule's invariants.
    static func check(_ length: Double, _ d: [Double], _ t: [Double], _ label: String) {
        let distance = BestEffortDistance(name: "x", metres: length)
        let fast = BestEfforts.best(for: distance, distances: d, times: t)
        let reference = Reference.best(length, d, t)
        #expect((fast == nil) == (reference.effort == nil), "\(label) D=\(length)")
        guard let fast, let expected = reference.effort else { return }
        // Same formulas on the same candidates: equal to the bit.
        #expect(fast.startT == expected.startT, "\(label) D=\(length)")
        #expect(fast.endT == expected.endT, "\(label) D=\(length)")
        #expect(fast.elapsed == expected.elapsed, "\(label) D=\(length)")
        #expect(fast.elapsed == fast.endT - fast.startT)
        #expect(fast.startT >= t[0] && fast.endT <= t[t.count - 1], "\(label) D=\(length)")
        // The tie rule costs less than a millisecond against the exact least time.
        #expect(fast.elapsed - reference.exactMinimum < 0.001 + 1e-6, "\(label) D=\(length)")
        // No stretch anywhere beats the candidates: the least really is at a point.
        let n = d.count - 1
        var gridMinimum = Double.infinity
        for k in 0...64 {
            let x = d[0] + (d[n] - length - d[0]) * Double(k) / 64
            let y = min(x + length, d[n])
            gridMinimum = min(gridMinimum, Reference.endTime(y, d, t) - Reference.startTime(x, d, t))
        }
        #expect(gridMinimum >= reference.exactMinimum - 1e-6, "\(label) D=\(length)")
    }

    @Test func matchesBruteForceOnRandomRoutes() {
        var rng = SeededGenerator(seed: 0xBE57)
        for route in 0..<480 {
            let points =
                switch route % 8 {
                case 0: Int.random(in: 1...4, using: &rng)  // very short
                case 1: Int.random(in: 5...30, using: &rng)
                default: Int.random(in: 30...400, using: &rng)
                }
            let (d, t) = Self.randomRoute(&rng, points: points, integral: route % 2 == 0)
            let label = "route \(route) (\(points) points, \(d[d.count - 1]) m)"
            let standard = BestEffortDistance.standard(for: .run).map(\.metres)
            for length in Self.customLengths + standard {
                Self.check(length, d, t, label)
            }
            // The whole route as one distance: the only stretch is the route itself.
            if d[d.count - 1] > 0 {
                Self.check(d[d.count - 1], d, t, label + " whole")
            }

            let efforts = BestEfforts.compute(distances: d, times: t, activity: .run)
            #expect(efforts.map(\.distanceMetres) == standard.filter { $0 <= d[d.count - 1] }, "\(label)")
            for (shorter, longer) in zip(efforts, efforts.dropFirst()) {
                #expect(longer.elapsedRounded >= shorter.elapsedRounded, "\(label) \(longer.distance)")
            }
        }
    }

    // MARK: - Hand-computed cases

    /// 0–100 m at 1 m/s, 100–200 m at 10 m/s, a 5 s pause at 200 m, 200–300 m at 10 m/s,
    /// 300–400 m at 1 m/s.
    static let pauseRoute: (d: [Double], t: [Double]) = (
        [0, 100, 200, 200, 300, 400], [0, 100, 110, 115, 125, 225].map { t0 + $0 }
    )

    static func effort(_ metres: Double, _ route: (d: [Double], t: [Double])) -> BestEffort? {
        BestEfforts.best(for: BestEffortDistance(name: "x", metres: metres), distances: route.d, times: route.t)
    }

    @Test func aStretchAcrossAPauseCountsThePause() throws {
        // 100 → 300 m: 10 s, the 5 s pause, 10 s.
        let e = try #require(Self.effort(200, Self.pauseRoute))
        #expect(e.startT == Self.t0 + 100)
        #expect(e.endT == Self.t0 + 125)
        #expect(e.elapsed == 25)
    }

    @Test func endsAtAPauseTakeTheEarliestTimeAndStartsTheLatest() throws {
        // 100 → 200 m ends at the pause's first time (110): 10 s; 200 → 300 m starts at its
        // last time (115): also 10 s. The tie goes to the earlier start.
        let e = try #require(Self.effort(100, Self.pauseRoute))
        #expect(e.startT == Self.t0 + 100)
        #expect(e.endT == Self.t0 + 110)
        #expect(e.elapsed == 10)
        // 150 m: 100 → 250 m (10 + 5 + 5 s) and 150 → 300 m (5 + 5 + 10 s) tie at 20 s.
        let f = try #require(Self.effort(150, Self.pauseRoute))
        #expect(f.startT == Self.t0 + 100)
        #expect(f.endT == Self.t0 + 120)
        #expect(f.elapsed == 20)
    }

    @Test func aStartOrEndInsideASegmentIsInterpolated() throws {
        // 0–100 m in 40 s, 100–200 m in 10 s, 200–300 m in 40 s: every 150 m placement covering
        // the fast segment costs 10 + 50·0.4 = 30 s; the earliest starts at 50 m (t = 20),
        // inside the first segment, and ends at 200 m (t = 50).
        let route: (d: [Double], t: [Double]) = ([0, 100, 200, 300], [0, 40, 50, 90].map { Self.t0 + $0 })
        let e = try #require(Self.effort(150, route))
        #expect(e.elapsed == 30)
        #expect(e.startT == Self.t0 + 20)
        #expect(e.endT == Self.t0 + 50)
    }

    @Test func aRouteExactlyTheDistanceLongHasOneStretch() throws {
        let route: (d: [Double], t: [Double]) = ([0, 150, 150, 400], [0, 50, 80, 100].map { Self.t0 + $0 })
        let efforts = BestEfforts.compute(distances: route.d, times: route.t, activity: .run)
        #expect(efforts.map(\.distance) == ["400m"])
        let e = try #require(efforts.first)
        #expect(e.distanceMetres == 400)
        #expect(e.startT == Self.t0 && e.endT == Self.t0 + 100 && e.elapsed == 100)
        // A hair shorter: nothing.
        let short: (d: [Double], t: [Double]) = ([0, 399.99999999999994], [Self.t0, Self.t0 + 100])
        #expect(BestEfforts.compute(distances: short.d, times: short.t, activity: .run).isEmpty)
    }

    @Test func tooShortOrNoDistancesGiveNothing() {
        let p = TrackPoint(lat: 46.05, lon: 14.5, t: Self.t0)
        #expect(BestEfforts.compute(points: [], activity: .run).isEmpty)
        #expect(BestEfforts.compute(points: [p], activity: .run).isEmpty)
        let paused = [p, TrackPoint(lat: p.lat, lon: p.lon, t: p.t + 60)]
        #expect(BestEfforts.compute(points: paused, activity: .run).isEmpty)
        var route = RouteBuilder(t: Self.t0)
        for _ in 0..<31 { route.step(1000, after: 100) }
        #expect(BestEfforts.compute(points: route.points, activity: .drive).isEmpty)
        #expect(BestEfforts.compute(points: route.points, activity: .other).isEmpty)
        let ride = BestEfforts.compute(points: route.points, activity: .ride)
        #expect(ride.map(\.distance) == ["5k", "10k", "20k", "30k"])
        #expect(BestEfforts.best(for: BestEffortDistance(name: "x", metres: 1), distances: [0], times: [1]) == nil)
    }

    /// Along a meridian, 100 m steps: 0–1000 m at 4 m/s, 1000–2000 m at 5 m/s, 2000–3000 m at
    /// 4 m/s. Every window inside the fast kilometre ties; the earliest wins.
    @Test func aMeridianWithAFastKilometre() throws {
        let origin = Coordinate(lat: 46.05, lon: 14.5)
        var points: [TrackPoint] = []
        var t = Self.t0
        for k in 0...30 {
            if k > 0 { t += (11...20).contains(k) ? 20 : 25 }
            let c = Geodesic.direct(from: origin, azimuth: 0, distance: Double(k) * 100)
            points.append(TrackPoint(lat: c.lat, lon: c.lon, t: t))
        }
        let efforts = BestEfforts.compute(points: points, activity: .run)
        #expect(efforts.map(\.distance) == ["400m", "half_mile", "1k", "1_mile"])
        let expected: [(elapsed: Double, start: Double, end: Double)] = [
            (80, 250, 330),  // the first 400 m of the fast kilometre
            (160.934, 250, 410.934),  // 804.672 / 5
            (200, 250, 450),
            // The fast kilometre and 609.344 m at 4 m/s (152.336 s) before it: from 390.656 m.
            (352.336, 97.664, 450),
        ]
        for (e, x) in zip(efforts, expected) {
            #expect(e.elapsedRounded == x.elapsed, "\(e.distance)")
            #expect(e.startTRounded == Self.t0 + x.start, "\(e.distance)")
            #expect(e.endTRounded == Self.t0 + x.end, "\(e.distance)")
        }
    }

    // MARK: - Points

    /// Geodesic routes with pauses (the same position again), through ``BestEfforts/compute(points:activity:)``.
    @Test func pointsGiveTheRouteDistanceAndTheArrayResult() {
        var rng = SeededGenerator(seed: 42)
        for route in 0..<6 {
            var builder = RouteBuilder(t: Self.t0 + Double(route) * 0.125)
            for _ in 0..<Int.random(in: 50...400, using: &rng) {
                if Double.random(in: 0..<1, using: &rng) < 0.1 {
                    let last = builder.last
                    builder.points.append(
                        TrackPoint(lat: last.lat, lon: last.lon, t: last.t + Double.random(in: 1...60, using: &rng)))
                } else {
                    let speed = Double.random(in: 2...6, using: &rng)
                    let metres = Double.random(in: 1...60, using: &rng)
                    builder.step(metres, after: metres / speed)
                }
            }
            let points = builder.points
            let d = BestEfforts.cumulativeDistances(of: points)
            let stats = StatsAccumulator.rebuilding(activity: .run, keptPoints: points)
            #expect(d[d.count - 1] == stats.distance, "route \(route): bit for bit")
            #expect(d[d.count - 1] == stats.stats.distanceM)
            let efforts = BestEfforts.compute(points: points, activity: .run)
            #expect(efforts == BestEfforts.compute(distances: d, times: points.map(\.t), activity: .run))
            #expect(!efforts.isEmpty)
            for e in efforts {
                Self.check(e.distanceMetres, d, points.map(\.t), "points route \(route)")
            }
        }
    }

    // MARK: - Distances and rounding

    @Test func standardDistances() {
        for activity in Activity.allCases {
            let metres = BestEffortDistance.standard(for: activity).map(\.metres)
            #expect(metres == metres.sorted() && Set(metres).count == metres.count)
        }
        #expect(BestEffortDistance.standard(for: .run).count == 15)
        #expect(BestEffortDistance.standard(for: .walk) == BestEffortDistance.standard(for: .run))
        #expect(BestEffortDistance.standard(for: .ride).count == 10)
        #expect(BestEffortDistance.named("marathon", activity: .walk)?.metres == 42195)
        #expect(BestEffortDistance.named("half_mile", activity: .run)?.metres == 804.672)
        #expect(BestEffortDistance.named("100_mile", activity: .ride)?.metres == 160934.4)
        #expect(BestEffortDistance.named("40k", activity: .run) == nil)
        #expect(BestEffortDistance.named("400m", activity: .ride) == nil)
        #expect(BestEffortDistance.named("5k", activity: .drive) == nil)
        #expect(BestEffortDistance.named("5K", activity: .run) == nil)
    }

    @Test func roundingToTheMillisecond() {
        #expect(BestEffort.roundedToMillisecond(0.0625) == 0.063)  // exact half: away from zero
        #expect(BestEffort.roundedToMillisecond(-0.0625) == -0.063)
        #expect(BestEffort.roundedToMillisecond(1_700_000_123.456_49) == 1_700_000_123.456)
        let e = BestEffort(distance: "1k", distanceMetres: 1000, elapsed: 200.0004, startT: 10.0006, endT: 210.001)
        #expect(e.elapsedRounded == 200 && e.startTRounded == 10.001 && e.endTRounded == 210.001)
    }
}
