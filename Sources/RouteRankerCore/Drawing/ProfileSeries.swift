import Foundation

/// What a profile chart plots against what.
public enum ProfileY: String, Sendable, CaseIterable {
    case elevation, speed, pace
}

/// The horizontal axis of a profile chart.
public enum ProfileX: String, Sendable, CaseIterable {
    case distance, time
}

/// The values of a profile chart, in the units people read: x in metres from the start or seconds
/// since the first point; y in metres (elevation), km/h (speed) or seconds per km (pace).
///
/// Speed at a point is the distance over the time since the latest earlier point at least
/// ``speedWindowS`` before it (the start when there is none), so GPS jitter between fixes a
/// second apart does not draw spikes. Pace is 1000 / speed where the speed is at least
/// ``minimumPaceSpeedMps``; standing still has no pace and leaves a gap.
public enum ProfileSeries {
    public static let speedWindowS = 10.0
    public static let minimumPaceSpeedMps = 0.5

    /// The (x, y) pairs for `points` (in order), leaving out points without a y value.
    public static func values(_ points: [TrackPoint], y: ProfileY, x: ProfileX) -> [(x: Double, y: Double)] {
        guard let first = points.first else { return [] }
        var along = [0.0]
        along.reserveCapacity(points.count)
        for i in points.indices.dropFirst() {
            along.append(along[i - 1] + Geodesic.distance(from: points[i - 1].coordinate, to: points[i].coordinate))
        }
        var out: [(x: Double, y: Double)] = []
        var back = 0
        for i in points.indices {
            let xValue = x == .distance ? along[i] : points[i].t - first.t
            switch y {
            case .elevation:
                if let ele = points[i].ele { out.append((xValue, ele)) }
            case .speed, .pace:
                while back + 1 < i, points[i].t - points[back + 1].t >= speedWindowS { back += 1 }
                let dt = points[i].t - points[back].t
                guard i > 0, dt > 0 else { continue }
                let speed = (along[i] - along[back]) / dt
                if y == .speed {
                    out.append((xValue, speed * 3.6))
                } else if speed >= minimumPaceSpeedMps {
                    out.append((xValue, 1000 / speed))
                }
            }
        }
        return out
    }
}
