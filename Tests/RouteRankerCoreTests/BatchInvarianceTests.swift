import Foundation
import Testing

@testable import RouteRankerCore

/// The invariant appends rely on: any split of a route into batches, with the state saved and
/// loaded between batches, gives the same stats to the last bit as one batch.
@Suite struct BatchInvarianceTests {
    /// A messy route: mostly plausible steps, with spikes, duplicates, out-of-order and
    /// inaccurate points, long gaps, elevation noise and kilometre-long hops.
    static func randomRoute(_ rng: inout SeededGenerator) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var b = RouteBuilder(
            lat: .random(in: -70...70, using: &rng), lon: .random(in: -179...179, using: &rng),
            t: .random(in: 1e9...1.8e9, using: &rng), ele: .random(in: 0...2000, using: &rng))
        points.append(b.last)
        for _ in 0..<Int.random(in: 0...300, using: &rng) {
            let roll = Int.random(in: 0..<100, using: &rng)
            let dt = roll < 5 ? Double.random(in: 30...900, using: &rng) : Double.random(in: 0.2...5, using: &rng)
            var metres = Double.random(in: 0...(dt * 15), using: &rng)
            if roll >= 95 { metres = Double.random(in: 1000...5000, using: &rng) }  // spikes / hops
            let ele = roll % 7 == 0 ? nil : b.last.ele.map { $0 + .random(in: -8...8, using: &rng) } ?? 100
            let acc: Double? = roll % 11 == 0 ? .random(in: 0...80, using: &rng) : nil
            let p = RouteBuilder.point(
                from: b.last, metres: metres, after: dt, ele: ele, acc: acc,
                azimuth: .random(in: -180...180, using: &rng))
            b.points.append(p)
            points.append(p)
            if roll % 13 == 0 { points.append(points[Int.random(in: 0..<points.count, using: &rng)]) }  // retry
        }
        return points
    }

    static func randomSplit(_ count: Int, _ rng: inout SeededGenerator) -> [Range<Int>] {
        var cuts = Set(
            (0..<Int.random(in: 0...min(count, 12), using: &rng)).map { _ in Int.random(in: 0...count, using: &rng) })
        cuts.formUnion([0, count])
        let sorted = cuts.sorted()
        return zip(sorted, sorted.dropFirst()).map { $0..<$1 } + [count..<count]  // and an empty batch
    }

    @Test func anySplitGivesBitIdenticalStats() throws {
        var rng = SeededGenerator(seed: 2026)
        for _ in 0..<300 {
            let route = Self.randomRoute(&rng)
            let activity = Activity.allCases.randomElement(using: &rng)!
            var whole = StatsAccumulator(activity: activity)
            let one = whole.ingest(route)
            for _ in 0..<4 {
                var acc = StatsAccumulator(activity: activity)
                var total = IngestResult()
                for range in Self.randomSplit(route.count, &rng) {
                    acc = try Routes.persisted(acc)
                    total.merge(acc.ingest(route[range]))
                }
                #expect(acc == whole)
                #expect(acc.stats == whole.stats)
                #expect(total == one)
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys  // key order is otherwise unspecified
                #expect(try encoder.encode(acc.stats) == encoder.encode(whole.stats))
            }
        }
    }

    @Test func rebuildingFromKeptPointsReproducesTheState() {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            let route = Self.randomRoute(&rng)
            let activity = Activity.allCases.randomElement(using: &rng)!
            var acc = StatsAccumulator(activity: activity)
            let kept = acc.ingest(route).kept
            #expect(StatsAccumulator.rebuilding(activity: activity, keptPoints: kept, spikeRun: acc.spikeRun) == acc)
        }
    }

    @Test func changingActivityRecomputesAndLaterAppendsUseTheNewMaximum() {
        var b = RouteBuilder()
        for _ in 0..<20 { b.step(15, after: 1) }  // 15 m/s: a spike for run (12), fine for ride (35)
        var acc = StatsAccumulator(activity: .ride)
        let kept = acc.ingest(b.points).kept
        #expect(kept.count == 21)
        acc.changeActivity(to: .walk, keptPoints: kept)
        #expect(acc.stats.points == 21)  // kept points stay kept
        #expect(acc.stats.params == Activity.walk.parameters)
        #expect(acc.stats.movingTimeS == 20)
        b.step(15, after: 1)
        let r = acc.ingest([b.last])
        #expect(r.dropped == 1)  // now over walk's 7 m/s
        acc.changeActivity(to: .ride, keptPoints: kept)
        #expect(acc.spikeRun == 1)  // the spike count carries over
    }
}
