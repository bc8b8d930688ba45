import Foundation

@testable import RouteRankerCore

/// A seeded generator (SplitMix64), so every "random" test is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds routes whose steps have exact, known lengths (via the geodesic direct problem).
struct RouteBuilder {
    var points: [TrackPoint]

    init(lat: Double = 46.05, lon: Double = 14.5, t: Double = 1_700_000_000, ele: Double? = nil) {
        points = [TrackPoint(lat: lat, lon: lon, t: t, ele: ele)]
    }

    var last: TrackPoint { points[points.count - 1] }

    /// Appends a point `metres` north-east of the last one, `seconds` later.
    @discardableResult
    mutating func step(_ metres: Double, after seconds: Double, ele: Double? = nil, acc: Double? = nil) -> TrackPoint {
        let p = Self.point(from: last, metres: metres, after: seconds, ele: ele, acc: acc)
        points.append(p)
        return p
    }

    static func point(
        from p: TrackPoint, metres: Double, after seconds: Double, ele: Double? = nil, acc: Double? = nil,
        azimuth: Double = 45
    ) -> TrackPoint {
        let c = Geodesic.direct(from: p.coordinate, azimuth: azimuth, distance: metres)
        return TrackPoint(lat: c.lat, lon: c.lon, t: p.t + seconds, ele: ele, acc: acc)
    }
}

/// Route helpers for the tests.
enum Routes {
    /// Kept points through a fresh accumulator in one batch.
    static func stats(_ points: [TrackPoint], _ activity: Activity = .other) -> (StatsAccumulator, IngestResult) {
        var acc = StatsAccumulator(activity: activity)
        let r = acc.ingest(points)
        return (acc, r)
    }

    /// Brute force max speed over all runs spanning ≥ 10 s (the definition, O(n²)).
    static func bruteForceMaxSpeed(_ pts: [TrackPoint]) -> Double {
        var cumulative = [0.0]
        for i in pts.indices.dropFirst() {
            cumulative.append(cumulative[i - 1] + Geodesic.distance(from: pts[i - 1].coordinate, to: pts[i].coordinate))
        }
        var best = 0.0
        for j in pts.indices {
            for i in 0..<j where pts[j].t - pts[i].t >= 10 {
                best = max(best, (cumulative[j] - cumulative[i]) / (pts[j].t - pts[i].t))
            }
        }
        return best
    }

    /// JSON round trip, as the server's persistence does between requests.
    static func persisted(_ acc: StatsAccumulator) throws -> StatsAccumulator {
        try JSONDecoder().decode(StatsAccumulator.self, from: JSONEncoder().encode(acc))
    }
}
