import Testing

@testable import RouteRankerCore

/// API.md "Ingest": duplicates, accuracy drops, spikes and the 3-in-a-row re-anchor.
@Suite struct IngestFilterTests {
    /// A second point whose speed from `p` is exactly `speed` as the filter computes it, or
    /// as close below as doubles allow; and one a hair faster.
    static func pointsAround(speed: Double, from p: TrackPoint, metres: Double) -> (
        atMost: TrackPoint, above: TrackPoint
    ) {
        var q = RouteBuilder.point(from: p, metres: metres, after: metres / speed)
        let d = Geodesic.distance(from: p.coordinate, to: q.coordinate)
        while d / (q.t - p.t) > speed { q.t = q.t.nextUp }
        while d / (q.t.nextDown - p.t) <= speed { q.t = q.t.nextDown }
        var above = q
        while !(d / (above.t - p.t) > speed) { above.t = above.t.nextDown }
        return (q, above)
    }

    @Test(arguments: Activity.allCases)
    func spikeThresholdIsStrict(activity: Activity) {
        let start = TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000)
        let (at, above) = Self.pointsAround(speed: activity.maxSpeed, from: start, metres: 150)
        let d = Geodesic.distance(from: start.coordinate, to: at.coordinate)
        #expect(d / (at.t - start.t) <= activity.maxSpeed)
        #expect(d / (above.t - start.t) > activity.maxSpeed)

        var acc = StatsAccumulator(activity: activity)
        var r = acc.ingest([start, at])
        #expect((r.accepted, r.dropped) == (2, 0))
        acc = StatsAccumulator(activity: activity)
        r = acc.ingest([start, above])
        #expect((r.accepted, r.dropped) == (1, 1))
    }

    @Test func firstPointIsNeverASpike() {
        var acc = StatsAccumulator(activity: .walk)
        let r = acc.ingest([TrackPoint(lat: 89, lon: 179, t: 1, acc: 50)])
        #expect(r.accepted == 1 && acc.spikeRun == 0)
    }

    @Test func accuracyFiftyIsKeptAboveIsDropped() {
        var b = RouteBuilder()
        b.step(5, after: 5, acc: 50)
        b.step(5, after: 5, acc: 50.0001)
        b.step(5, after: 5, acc: 0)
        let (acc, r) = Routes.stats(b.points, .walk)
        #expect((r.accepted, r.dropped, r.duplicates) == (3, 1, 0))
        #expect(acc.count == 3)
    }

    @Test func duplicatesAreNotAfterTheLastKeptPoint() {
        var b = RouteBuilder()
        b.step(5, after: 5)
        var pts = b.points
        pts.append(pts[1])  // same t
        pts.append(TrackPoint(lat: 0, lon: 0, t: pts[0].t))  // earlier t, far away: still a duplicate
        pts.append(RouteBuilder.point(from: pts[1], metres: 5, after: 2))
        let (acc, r) = Routes.stats(pts, .walk)
        #expect((r.accepted, r.duplicates, r.dropped) == (3, 2, 0))
        // A retried batch is harmless.
        var again = acc
        let r2 = again.ingest(pts)
        #expect((r2.accepted, r2.duplicates, r2.dropped) == (0, 5, 0))
        #expect(again == acc)
    }

    @Test func thirdSpikeInARowIsKeptAndReanchors() {
        let start = TrackPoint(lat: 46.05, lon: 14.5, t: 1_000)
        let far = Coordinate(lat: 46.15, lon: 14.5)  // ~11 km away: a spike at any speed here
        let spikes = (1...3).map { TrackPoint(lat: far.lat, lon: far.lon + Double($0) * 1e-5, t: 1_000 + Double($0)) }
        let next = TrackPoint(lat: far.lat, lon: far.lon + 5e-5, t: 1_010)
        let (acc, r) = Routes.stats([start] + spikes + [next], .run)
        #expect((r.accepted, r.dropped) == (3, 2))
        #expect(r.kept == [start, spikes[2], next])
        #expect(acc.spikeRun == 0)
    }

    @Test func duplicatesAndAccuracyDropsNeitherCountNorBreakARun() {
        let start = TrackPoint(lat: 46.05, lon: 14.5, t: 1_000)
        func spike(_ i: Double, acc: Double? = nil) -> TrackPoint {
            TrackPoint(lat: 46.15, lon: 14.5 + i * 1e-5, t: 1_000 + i, acc: acc)
        }
        let pts = [start, spike(1), TrackPoint(lat: 46.05, lon: 14.5, t: 1_000), spike(2, acc: 80), spike(3), spike(4)]
        let (_, r) = Routes.stats(pts, .run)
        // spike(1) dropped (1), duplicate, accuracy drop, spike(3) dropped (2), spike(4) kept.
        #expect(r.kept == [start, spike(4)])
        #expect((r.duplicates, r.dropped) == (1, 3))
    }

    @Test func aKeptPointResetsTheRun() {
        var b = RouteBuilder()
        let start = b.last
        let spike1 = TrackPoint(lat: 46.15, lon: 14.5, t: start.t + 1)
        b.step(3, after: 2)  // a good point
        let spike2 = TrackPoint(lat: 46.15, lon: 14.5, t: start.t + 3)
        let spike3 = TrackPoint(lat: 46.15, lon: 14.5001, t: start.t + 4)
        let (acc, r) = Routes.stats([start, spike1, b.last, spike2, spike3], .walk)
        #expect(r.kept == [start, b.last])
        #expect(r.dropped == 3 && acc.spikeRun == 2)
    }

    @Test func theSpikeCountCarriesAcrossBatches() throws {
        let start = TrackPoint(lat: 46.05, lon: 14.5, t: 1_000)
        let spikes = (1...3).map { TrackPoint(lat: 46.15, lon: 14.5 + Double($0) * 1e-5, t: 1_000 + Double($0)) }
        var acc = StatsAccumulator(activity: .ride)
        var total = IngestResult()
        for batch in [[start], [spikes[0]], [spikes[1]], [spikes[2]]] {
            acc = try Routes.persisted(acc)
            total.merge(acc.ingest(batch))
        }
        #expect(total.kept == [start, spikes[2]] && total.dropped == 2)
    }

    @Test func jsonBodiesAreSortedStably() {
        let a = TrackPoint(lat: 1, lon: 1, t: 5)
        let b = TrackPoint(lat: 2, lon: 2, t: 3)
        let c = TrackPoint(lat: 3, lon: 3, t: 5)
        let d = TrackPoint(lat: 4, lon: 4, t: 1)
        #expect(TrackPoint.sortedByTime([a, b, c, d]) == [d, b, a, c])
        #expect(TrackPoint.sortedByTime([c, b, a, d]) == [d, b, c, a])
    }
}
