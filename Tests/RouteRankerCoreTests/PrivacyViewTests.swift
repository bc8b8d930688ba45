import Testing

@testable import RouteRankerCore

/// Start, end and bbox of what another user may see.
@Suite struct PrivacyViewTests {
    @Test func extentOfVisiblePoints() {
        var b = RouteBuilder(lat: 46.05, lon: 14.5, t: 1_000)
        for _ in 0..<40 { b.step(100, after: 30) }
        let home = PrivacyZone(lat: 46.05, lon: 14.5, radiusM: 500)
        let stats = Routes.stats(b.points, .walk).0.stats
        let extent = VisibleExtent(points: b.points) { home.contains($0.coordinate) }
        let visible = b.points.filter { !home.contains($0.coordinate) }
        #expect(visible.count == 35)  // steps 0…5 (0–500 m) are inside; 500 m counts as inside
        let view = extent.apply(to: stats)
        #expect(view.start == RouteStats.Endpoint(visible[0]))
        #expect(view.end == stats.end)
        #expect(view.bbox?.minLat == visible[0].lat)
        #expect(view.distanceM == stats.distanceM)

        var streamed = VisibleExtent()
        for p in b.points { streamed.add(p, hiddenBy: [home]) }
        #expect(streamed == extent)
        #expect(VisibleExtent(points: b.points) { _ in true }.apply(to: stats).start == nil)
    }

    @Test func zoneBoundaryIsInclusive() {
        let c = Coordinate(lat: 10, lon: 10)
        let q = Geodesic.direct(from: c, azimuth: 30, distance: 250)
        let d = Geodesic.distance(from: c, to: q)
        #expect(PrivacyZone(lat: 10, lon: 10, radiusM: d).contains(q))
        #expect(!PrivacyZone(lat: 10, lon: 10, radiusM: d.nextDown).contains(q))
    }
}
