import Mongo
import RouteRankerCore
import RouteRankerStorage
import Testing

/// The statistics state as stored in a route document (`stats_state`) reads back bit for bit, so
/// that any split of a route into appends gives the same stats as one upload.
@Suite struct StatsStateStorageTests {
    /// A walk with awkward numbers: sub-ulp steps, spikes, gaps, points with and without `ele`/`acc`.
    static func route(_ rng: inout some RandomNumberGenerator) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var lat = Double.random(in: -60...60, using: &rng)
        var lon = Double.random(in: -170...170, using: &rng)
        var t = Double.random(in: 1_600_000_000...1_800_000_000, using: &rng)
        for _ in 0..<Int.random(in: 0...400, using: &rng) {
            lat += Double.random(in: -3e-4...3e-4, using: &rng) * (Int.random(in: 0..<50, using: &rng) == 0 ? 100 : 1)
            lon += Double.random(in: -3e-4...3e-4, using: &rng)
            t += Double.random(in: 0.1...5, using: &rng) / 3
            points.append(
                TrackPoint(
                    lat: lat, lon: lon, t: t,
                    ele: Bool.random(using: &rng) ? Double.random(in: -10...900, using: &rng) : nil,
                    acc: Bool.random(using: &rng) ? Double.random(in: 0...80, using: &rng) : nil))
        }
        return points
    }

    /// Through BSON bytes and back, after every batch: the same accumulator and the same stats as
    /// one pass over the whole route.
    @Test func anySplitThroughStorageGivesTheSameState() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let points = Self.route(&rng)
            let activity = Activity.allCases.randomElement(using: &rng)!
            var whole = StatsAccumulator(activity: activity)
            _ = whole.ingest(points)
            var acc = StatsAccumulator(activity: activity)
            var start = 0
            while start < points.count {
                let end = min(points.count, start + Int.random(in: 1...60, using: &rng))
                acc = try #require(StatsAccumulator(bson: try BSONDocument(bsonBytes: acc.bson.bsonBytes())))
                _ = acc.ingest(points[start..<end])
                start = end
            }
            acc = try #require(StatsAccumulator(bson: try BSONDocument(bsonBytes: acc.bson.bsonBytes())))
            #expect(acc == whole)
            #expect(acc.stats == whole.stats)
        }
    }

    /// A state of another shape (e.g. the JSON string an earlier build wrote) is not read as one.
    @Test func aMalformedStateIsRefused() {
        var document = StatsAccumulator(activity: .run).bson
        #expect(StatsAccumulator(bson: document) == StatsAccumulator(activity: .run))
        document["distance"] = .int(3)
        #expect(StatsAccumulator(bson: document) == nil)
        #expect(StatsAccumulator(bson: ["activity": "run"]) == nil)
    }
}
