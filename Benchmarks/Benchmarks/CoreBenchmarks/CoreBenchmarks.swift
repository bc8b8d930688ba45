import Benchmark
import RouteRankerCore

/// Headline figures of RouteRankerCore, in a release build (scripts/bench-core):
/// segments/s of `Geodesic.distance` on GPS-like steps (the fast path), segments/s of PROJ's
/// Karney inverse on the same steps, points/s through `StatsAccumulator.ingest`, and pairs/s of
/// `DiscreteFrechet` on two 5 km paths.
/// Throughput is per iteration; one iteration is one segment or one point.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock], timeUnits: .nanoseconds, warmupIterations: 3,
        maxDuration: .seconds(2), maxIterations: 50)

    let track = BenchTrack.make(count: 100_000)
    let coordinates = track.map(\.coordinate)

    Benchmark("Geodesic.distance fast path (segments)", configuration: .init(scalingFactor: .mega)) { benchmark in
        var sum = 0.0
        var i = 0
        for _ in benchmark.scaledIterations {
            sum += Geodesic.distance(from: coordinates[i], to: coordinates[i + 1])
            i += 1
            if i == coordinates.count - 1 { i = 0 }
        }
        blackHole(sum)
    }

    Benchmark("Geodesic.inverse PROJ/Karney (segments)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var sum = 0.0
        var i = 0
        for _ in benchmark.scaledIterations {
            sum += Geodesic.inverse(from: coordinates[i], to: coordinates[i + 1]).distance
            i += 1
            if i == coordinates.count - 1 { i = 0 }
        }
        blackHole(sum)
    }

    Benchmark("StatsAccumulator.ingest (points, 1000-point batches)", configuration: .init(scalingFactor: .kilo)) {
        benchmark in
        // Batches of 1000 points, as an append would bring; the route restarts when exhausted.
        var acc = StatsAccumulator(activity: .run)
        var i = 0
        var pending = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            pending += 1
            if pending == 1000 {
                blackHole(acc.ingest(track[i..<i + 1000]).accepted)
                i += 1000
                pending = 0
                if i + 1000 > track.count {
                    i = 0
                    acc = StatsAccumulator(activity: .run)
                }
            }
        }
        blackHole(acc.stats.distanceM)
    }

    // `similar`'s inner step: two 5 km paths resampled every 10 m (~500 points each) that follow
    // the same way with ~1 m of noise. With the 50 m bound only the reachable band is computed;
    // unbounded, the whole 500 × 500 table. One iteration is one pair.
    let pathA = BenchTrack.fiveKilometres(seed: 1)
    let pathB = BenchTrack.fiveKilometres(seed: 2)
    Benchmark("Frechet 5 km pair, bound 50 m (pairs)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(DiscreteFrechet.distance(pathA, pathB, bound: 50)) }
    }
    Benchmark("Frechet 5 km pair, unbounded (pairs)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(DiscreteFrechet.distance(pathA, pathB)) }
    }
}

/// A GPS-like route: 1 Hz, 1–5 m steps with a wandering heading, at a mid latitude.
enum BenchTrack {
    static func make(count: Int) -> [TrackPoint] {
        var rng = SplitMix(state: 42)
        var lat = 47.3
        var lon = 8.5
        var heading = 0.0
        var points: [TrackPoint] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            points.append(TrackPoint(lat: lat, lon: lon, t: 1_700_000_000 + Double(i), ele: 400 + Double(i % 100)))
            heading += (rng.unit() - 0.5) * 0.6
            let metres = 1 + 4 * rng.unit()
            lat += metres * _cos(heading) / 111_200
            lon += metres * _sin(heading) / 75_500
        }
        return points
    }

    /// A 5 km path of 10 m steps turning 60° every 500 m, with up to 1 m of lateral noise.
    static func fiveKilometres(seed: UInt64) -> ResampledPath {
        var rng = SplitMix(state: seed)
        var clean = Coordinate(lat: 46.05, lon: 14.5)
        var raw = [clean]
        var heading = 40.0
        for k in 1...500 {
            if k % 50 == 0 { heading += 60 }
            clean = Geodesic.direct(from: clean, azimuth: heading, distance: 10)
            raw.append(Geodesic.direct(from: clean, azimuth: heading + 90, distance: (rng.unit() - 0.5) * 2))
        }
        return ResampledPath.resample(raw)
    }

    struct SplitMix {
        var state: UInt64
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }
}

// Foundation-free sine and cosine for the track generator only.
private func _cos(_ x: Double) -> Double { _sin(x + Double.pi / 2) }
private func _sin(_ x: Double) -> Double {
    var y = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if y > Double.pi { y -= 2 * Double.pi }
    if y < -Double.pi { y += 2 * Double.pi }
    var term = y
    var sum = y
    for k in 1..<12 {
        term *= -y * y / Double((2 * k) * (2 * k + 1))
        sum += term
    }
    return sum
}
