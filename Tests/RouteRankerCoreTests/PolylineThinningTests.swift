import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

/// Thinned lines stay within half a pixel of the full ones; ordinary routes are not thinned.
struct PolylineThinningTests {
    /// A wobbly line of `count` vertices, a fraction of a pixel apart, seeded.
    static func wobble(_ count: Int, seed: UInt64) -> [(x: Double, y: Double)] {
        var rng = SeededGenerator(seed: seed)
        var x = 10.0
        var y = 300.0
        return (0..<count).map { _ in
            x += Double.random(in: 0..<1, using: &rng) * 0.05
            y += (Double.random(in: 0..<1, using: &rng) - 0.5) * 0.4
            return (x: x, y: y)
        }
    }

    @Test func nearbyMovesNoVertexFartherThanTheTolerance() {
        for seed in 1...5 as ClosedRange<UInt64> {
            let line = Self.wobble(20_000, seed: seed)
            let kept = PolylineThinning.nearby(line)
            #expect(kept.count < line.count / 4)
            #expect(kept.first! == line.first! && kept.last! == line.last!)
            // Each dropped vertex is within 0.5 px of the kept vertex before it.
            var k = 0
            for p in line {
                if k + 1 < kept.count, p == kept[k + 1] {
                    k += 1
                    continue
                }
                let dx = p.x - kept[k].x
                let dy = p.y - kept[k].y
                #expect((dx * dx + dy * dy).squareRoot() <= 0.5 || p == line.last!)
            }
        }
    }

    @Test func columnsKeepEachColumnsEntryExitAndExtent() {
        let line = Self.wobble(50_000, seed: 9)
        let kept = PolylineThinning.columns(line)
        #expect(kept.count <= 4 * (Int(line.last!.x) - Int(line.first!.x) + 1))
        let byColumn = Dictionary(grouping: line, by: { Int($0.x.rounded(.down)) })
        let keptByColumn = Dictionary(grouping: kept, by: { Int($0.x.rounded(.down)) })
        #expect(Set(byColumn.keys) == Set(keptByColumn.keys))
        for (column, all) in byColumn {
            let some = keptByColumn[column]!
            #expect(some.map(\.y).min() == all.map(\.y).min())
            #expect(some.map(\.y).max() == all.map(\.y).max())
            #expect(some.first! == all.first! && some.last! == all.last!)
        }
        // The kept vertices keep their order along the series.
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.x <= $1.x })
    }

    @Test func ordinaryLinesAreDrawnVertexForVertex() throws {
        let points = (0..<2000).map { i in
            TrackPoint(lat: 46 + Double(i) * 0.00001, lon: 14 + Double(i % 7) * 0.00001, t: 1.7e9 + Double(i))
        }
        let exact = try ParsedSVG(RouteMapPicture.svg(points: points, width: 640, title: "t"))
        #expect(ParsedSVG.points(try #require(exact.elements("polyline", class: "route").first)).count == 2000)
        let many = (0..<100_000).map { i in
            TrackPoint(lat: 46 + Double(i) * 0.000001, lon: 14 + Double(i % 7) * 0.000001, t: 1.7e9 + Double(i))
        }
        let thinned = try ParsedSVG(RouteMapPicture.svg(points: many, width: 640, title: "t"))
        let drawn = ParsedSVG.points(try #require(thinned.elements("polyline", class: "route").first))
        #expect(drawn.count < 10_000 && drawn.count > 1)
        let profile = try ParsedSVG(ProfileChart.svg(points: many, y: .speed, x: .time, width: 640, title: "p"))
        #expect(ParsedSVG.points(try #require(profile.elements("polyline", class: "series").first)).count <= 4 * 640)
    }
}
