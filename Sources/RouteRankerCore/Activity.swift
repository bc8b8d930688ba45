/// What a route records; it sets the ingest filter's maximum speed and the moving threshold.
///
/// The raw values are API.md's lower-case names exactly (`"WALK"` is not an activity).
public enum Activity: String, Codable, Sendable, CaseIterable {
    case walk, run, ride, drive, other

    /// Whether people read this activity's rate as a pace (min/km: runs and walks) rather than
    /// as a speed (km/h).
    public var isOnFoot: Bool { self == .run || self == .walk }

    /// A point that would need more than this speed (m/s) from the last kept point is a GPS spike.
    public var maxSpeed: Double {
        switch self {
        case .walk: 7
        case .run: 12
        case .ride: 35
        case .drive, .other: 70
        }
    }

    /// A segment moves when its speed (m/s) is at least this (inclusive).
    public var movingThreshold: Double {
        switch self {
        case .walk: 0.2
        case .run: 0.5
        case .ride, .drive: 1.0
        case .other: 0.3
        }
    }

    /// The hysteresis of the elevation gain and loss, in metres, the same for every activity.
    public static let elevationHysteresis = 5.0

    /// Points with a horizontal accuracy worse than this (metres) are dropped; 50 itself is kept.
    public static let maxAccuracy = 50.0

    /// The parameters as reported in `stats.params`.
    public var parameters: RouteStats.Parameters {
        RouteStats.Parameters(
            maxSpeedMps: maxSpeed, movingThresholdMps: movingThreshold,
            elevationHysteresisM: Self.elevationHysteresis)
    }
}
