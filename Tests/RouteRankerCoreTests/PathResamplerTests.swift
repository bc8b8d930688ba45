import Foundation
import Testing

@testable import RouteRankerCore

/// Resampling every 10 m along the geodesic segments (API.md "Same route, ranked").
@Suite struct PathResamplerTests {
    static let origin = Coordinate(lat: 46.05, lon: 14.5)

    /// A GPS-like random walk of `n` points, 1–40 m steps.
    static func walk(_ n: Int, seed: UInt64) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        var points = [origin]
        var heading = 30.0
        for _ in 1..<n {
            heading += Double.random(in: -25...25, using: &rng)
            points.append(
                Geodesic.direct(
                    from: points[points.count - 1], azimuth: heading, distance: .random(in: 1...40, using: &rng)))
        }
        return points
    }

    @Test func emptyAndSinglePoint() {
        #expect(ResampledPath.resample([Coordinate]()).isEmpty)
        #expect(ResampledPath.resample([Self.origin]).coordinates == [Self.origin])
        #expect(ResampledPath.resample([Self.origin, Self.origin]).coordinates == [Self.origin])
    }

    @Test func marksLieOnTheGeodesicEvery10Metres() {
        // Raw points on one geodesic (same start and azimuth), at uneven distances.
        let raw = [0, 3.7, 15, 15, 42.3, 99.2, 103.5].map {
            Geodesic.direct(from: Self.origin, azimuth: 30, distance: $0)
        }
        let path = ResampledPath.resample(raw)
        #expect(path.count == 12)  // 0, 10, …, 100 and the end at 103.5
        for k in 0..<11 {
            #expect(abs(Geodesic.inverse(from: Self.origin, to: path[k]).distance - Double(k) * 10) < 1e-6)
        }
        #expect(path[11] == raw[6])
        #expect(path[0] == raw[0])
    }

    @Test func spacingAlongABendyPath() {
        let raw = Self.walk(300, seed: 7)
        var cumulative = [0.0]
        for i in 1..<raw.count {
            cumulative.append(cumulative[i - 1] + Geodesic.distance(from: raw[i - 1], to: raw[i]))
        }
        let path = ResampledPath.resample(raw)
        let total = cumulative[cumulative.count - 1]
        #expect(path.count == Int(total / 10) + 2)
        #expect(path[path.count - 1] == raw[raw.count - 1])
        // Segment of each mark: the raw segment its cumulative length falls in.
        func segment(_ k: Int) -> Int { cumulative.lastIndex { $0 < Double(k) * 10 } ?? 0 }
        var checked = 0
        for k in 1..<path.count - 1 {
            let step = Geodesic.distance(from: path[k - 1], to: path[k])
            #expect(step <= 10 + 1e-6)
            if segment(k) == segment(k - 1) {
                #expect(abs(step - 10) < 1e-6, "mark \(k)")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func chunksAndPersistenceDoNotChangeTheResult() throws {
        let raw = Self.walk(1000, seed: 11)
        let whole = ResampledPath.resample(raw)
        var rng = SeededGenerator(seed: 3)
        var r = PathResampler()
        var i = 0
        while i < raw.count {
            let n = Int.random(in: 1...50, using: &rng)
            r.add(contentsOf: raw[i..<min(raw.count, i + n)])
            // A server keeps the resampler between requests.
            r = try JSONDecoder().decode(PathResampler.self, from: JSONEncoder().encode(r))
            i += n
        }
        #expect(r.path == whole)
        var fromPoints = PathResampler()
        fromPoints.add(contentsOf: raw.map { TrackPoint(lat: $0.lat, lon: $0.lon, t: 1) })
        #expect(fromPoints.path == whole)
        #expect(abs(r.lengthM - (Double(whole.count - 2) * 10)) <= 10)
    }

    @Test func storedShapeIsTwoArrays() throws {
        let path = ResampledPath.resample(Self.walk(5, seed: 1))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(path)) as? [String: Any])
        #expect(Set(object.keys) == ["lat", "lon"])
        #expect(try JSONDecoder().decode(ResampledPath.self, from: JSONEncoder().encode(path)) == path)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ResampledPath.self, from: Data(#"{"lat":[1,2],"lon":[1]}"#.utf8))
        }
        #expect(ResampledPath(lat: [1], lon: []) == nil)
    }
}
