import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

/// API.md "Segments and leaderboards": the matching rule on hand-made paths with known times.
@Suite struct SegmentMatcherTests {
    static let a = Coordinate(lat: 46.05, lon: 14.5)
    static let t0 = 1_700_000_000.0

    /// A point every second, `speed` m/s along legs (azimuth, metres), starting at `from`.
    static func track(
        _ legs: [(azimuth: Double, metres: Double)], from: Coordinate = a, speed: Double = 4, t0: Double = t0
    ) -> [TrackPoint] {
        SyntheticTrack.walk(legs, from: from, speed: speed, t0: t0)
    }

    static func segment(_ points: some Collection<TrackPoint>) -> SegmentPath {
        SegmentPath(points: points.map(\.coordinate))
    }

    @Test func aStraightPassHasElapsedExactToThePointTimes() throws {
        let route = Self.track([(90, 1000)])
        let segment = Self.segment(route[50...150])
        let efforts = SegmentMatcher.efforts(of: route, on: segment)
        let effort = try #require(efforts.first)
        #expect(efforts.count == 1)
        #expect(effort.startIndex == 50)
        #expect(effort.endIndex == 150)
        #expect(effort.elapsedS == route[150].t - route[50].t)
        #expect(effort.elapsedS == 100)
        #expect(effort.startT == Self.t0 + 50)
        #expect(effort.frechetM < 1)
        #expect(abs(segment.lengthM - 400) < 1e-6)
    }

    @Test func aLapCourseGivesOneEffortPerLap() {
        // A 100 m square, three laps at 4 m/s: 25 points a side, 100 a lap.
        let lap: [(azimuth: Double, metres: Double)] = [(90, 100), (0, 100), (270, 100), (180, 100)]
        let route = Self.track(lap + lap + lap)
        let segment = Self.segment(route[0...25])  // the first side
        let efforts = SegmentMatcher.efforts(of: route, on: segment)
        #expect(efforts.map(\.startIndex) == [0, 100, 200])
        #expect(efforts.map(\.endIndex) == [25, 125, 225])
        #expect(efforts.map(\.elapsedS) == [25, 25, 25])
    }

    @Test func anOutAndBackGivesOneEffortInEachDirection() {
        let route = Self.track([(90, 500), (270, 500)])  // 125 points out, 125 back
        let out = Self.segment(route[25...100])
        let back = Self.segment(route[150...225])
        let outEfforts = SegmentMatcher.efforts(of: route, on: out)
        #expect(outEfforts.map(\.startIndex) == [25])
        #expect(outEfforts.map(\.endIndex) == [100])
        let backEfforts = SegmentMatcher.efforts(of: route, on: back)
        #expect(backEfforts.map(\.startIndex) == [150])
        #expect(backEfforts.map(\.endIndex) == [225])
    }

    @Test func aReversedRouteGivesNone() {
        let forward = Self.track([(90, 600)])
        let segment = Self.segment(forward[25...125])
        let reversed = forward.reversed().enumerated().map { i, p in
            TrackPoint(lat: p.lat, lon: p.lon, t: Self.t0 + Double(i))
        }
        #expect(SegmentMatcher.efforts(of: reversed, on: segment).isEmpty)
        #expect(SegmentMatcher.efforts(of: forward, on: segment).count == 1)
    }

    @Test func aRouteThatTouchesTheStartTwiceKeepsTheLaterStart() throws {
        // From the segment's start 100 m north and back, then east along the segment.
        let route = Self.track([(0, 100), (180, 100), (90, 400)])
        let startOfRun = 50  // back at the start after 25 + 25 points
        let segment = Self.segment(route[startOfRun...(startOfRun + 75)])
        let starts = SegmentMatcher.candidates(route.map(\.coordinate), near: segment.start)
        #expect(starts == [0, startOfRun])
        let efforts = SegmentMatcher.efforts(of: route, on: segment)
        let effort = try #require(efforts.first)
        #expect(efforts.count == 1)
        #expect(effort.startIndex == startOfRun)
        #expect(effort.elapsedS == 75)
    }

    @Test func aRouteThatSkipsTheMiddleGivesNone() {
        // The segment is an L (300 m east, then 300 m north); the route cuts the corner.
        let segmentRoute = Self.track([(90, 300), (0, 300)])
        let segment = Self.segment(segmentRoute)
        let shortcut = Self.track([(45, 424.26)])
        #expect(SegmentMatcher.candidates(shortcut.map(\.coordinate), near: segment.end).count == 1)
        #expect(SegmentMatcher.efforts(of: shortcut, on: segment).isEmpty)
        #expect(SegmentMatcher.efforts(of: segmentRoute, on: segment).count == 1)
    }

    @Test func leavingTheSegmentByMoreThan25MetresGivesNoneAndByLessGivesOne() {
        let straight = Self.track([(90, 600)])
        let segment = Self.segment(straight)
        // A detour in the middle: out sideways, along, and back.
        func detour(_ metres: Double) -> [TrackPoint] {
            Self.track([(90, 250), (0, metres), (90, 100), (180, metres), (90, 250)])
        }
        #expect(SegmentMatcher.efforts(of: detour(40), on: segment).isEmpty)
        #expect(SegmentMatcher.efforts(of: detour(15), on: segment).count == 1)
    }

    @Test func candidatesAreTheClosestOfEachRunTheEarliestOnATie() {
        let target = Self.a
        let east = { (m: Double) in Geodesic.direct(from: target, azimuth: 90, distance: m) }
        let west = { (m: Double) in Geodesic.direct(from: target, azimuth: 270, distance: m) }
        // Run 1: 20 m, 10 m west, 10 m east (a tie), 20 m; then far; run 2: 5 m; far.
        let points = [west(20), west(10), east(10), east(20), east(100), east(5), east(100)]
        #expect(SegmentMatcher.candidates(points, near: target) == [1, 5])
        // 25 m is within (24.999 m: the direct problem's round trip may add an ulp to 25).
        #expect(SegmentMatcher.candidates([east(24.999)], near: target) == [0])
        #expect(SegmentMatcher.candidates([east(25.01)], near: target).isEmpty)
    }

    @Test func pairsTakeTheFirstEndAfterAStartAndTheLatestStartOfAnEnd() {
        #expect(
            SegmentMatcher.pairs(starts: [0, 10, 20], ends: [15, 30]).map { [$0.start, $0.end] } == [
                [10, 15], [20, 30],
            ])
        #expect(SegmentMatcher.pairs(starts: [5], ends: [5]).isEmpty)
        #expect(SegmentMatcher.pairs(starts: [5], ends: [2, 4]).isEmpty)
        #expect(SegmentMatcher.pairs(starts: [1, 3], ends: [2, 4]).map { [$0.start, $0.end] } == [[1, 2], [3, 4]])
    }
}
