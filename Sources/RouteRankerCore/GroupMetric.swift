/// The route figure that groups are compared on: API.md's `metric` parameter.
public enum GroupMetric: String, Sendable, Hashable, Codable, CaseIterable {
    /// Last `t` minus first `t` (the default).
    case durationS = "duration_s"
    /// Time spent at or above the moving threshold.
    case movingTimeS = "moving_time_s"
    /// Moving time per kilometre; `null` for a route without movement or distance.
    case avgPaceSPerKm = "avg_pace_s_per_km"
    /// Distance over moving time.
    case avgSpeedMps = "avg_speed_mps"
    /// Geodesic length.
    case distanceM = "distance_m"

    /// The metric used when a request names none.
    public static let `default` = GroupMetric.durationS

    /// Whether a higher value ranks better (speed and distance); for the others lower is better.
    public var higherIsBetter: Bool {
        switch self {
        case .avgSpeedMps, .distanceM: true
        case .durationS, .movingTimeS, .avgPaceSPerKm: false
        }
    }

    /// The metric's value for a route, nil when it is `null` there (only the pace can be).
    public func value(of stats: RouteStats) -> Double? {
        switch self {
        case .durationS: stats.durationS
        case .movingTimeS: stats.movingTimeS
        case .avgPaceSPerKm: stats.avgPaceSPerKm
        case .avgSpeedMps: stats.avgSpeedMps
        case .distanceM: stats.distanceM
        }
    }
}
