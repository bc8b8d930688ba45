/// API.md's `stats` object, with its JSON field names; absent values encode as explicit `null`.
public struct RouteStats: Sendable, Hashable, Codable {
    /// Kept points.
    public var points: Int
    /// Sum of the WGS84 geodesic lengths between consecutive kept points, metres.
    public var distanceM: Double
    /// Last `t` minus first `t`, seconds.
    public var durationS: Double
    /// Sum of Δt over segments at or above the moving threshold, seconds.
    public var movingTimeS: Double
    /// `distance_m / moving_time_s`, 0 when not moving.
    public var avgSpeedMps: Double
    /// `moving_time_s / (distance_m / 1000)`, nil when either is 0.
    public var avgPaceSPerKm: Double?
    /// Highest path length / elapsed time over any run of consecutive points spanning ≥ 10 s.
    public var maxSpeedMps: Double
    /// Elevation gain with 5 m hysteresis; nil when no point has `ele`.
    public var elevationGainM: Double?
    /// Elevation loss with 5 m hysteresis; nil when no point has `ele`.
    public var elevationLossM: Double?
    /// `[min_lon, min_lat, max_lon, max_lat]`, nil without points.
    public var bbox: BoundingBox?
    /// The first kept point.
    public var start: Endpoint?
    /// The last kept point.
    public var end: Endpoint?
    /// One entry per whole kilometre.
    public var splits: [Split]
    /// How the figures were computed.
    public var params: Parameters

    /// The stats of a route without points, for `activity`.
    public static func empty(activity: Activity) -> RouteStats {
        RouteStats(
            points: 0, distanceM: 0, durationS: 0, movingTimeS: 0, avgSpeedMps: 0, avgPaceSPerKm: nil,
            maxSpeedMps: 0, elevationGainM: nil, elevationLossM: nil, bbox: nil, start: nil, end: nil, splits: [],
            params: activity.parameters)
    }

    /// `{"lat","lon","t"}`.
    public struct Endpoint: Sendable, Hashable, Codable {
        /// Latitude in degrees.
        public var lat: Double
        /// Longitude in degrees.
        public var lon: Double
        /// Unix epoch seconds.
        public var t: Double

        /// An endpoint.
        public init(lat: Double, lon: Double, t: Double) {
            self.lat = lat
            self.lon = lon
            self.t = t
        }

        /// The endpoint of a point.
        public init(_ p: TrackPoint) { self.init(lat: p.lat, lon: p.lon, t: p.t) }
    }

    /// `{"km","time_s","pace_s_per_km"}`; the pace equals the time (it is a kilometre).
    public struct Split: Sendable, Hashable, Codable {
        /// 1-based kilometre number.
        public var km: Int
        /// Seconds taken for that kilometre.
        public var timeS: Double
        /// Seconds per kilometre, equal to `timeS`.
        public var paceSPerKm: Double

        /// A split of `timeS` seconds.
        public init(km: Int, timeS: Double) {
            self.km = km
            self.timeS = timeS
            self.paceSPerKm = timeS
        }

        private enum CodingKeys: String, CodingKey {
            case km
            case timeS = "time_s"
            case paceSPerKm = "pace_s_per_km"
        }
    }

    /// `{"max_speed_mps","moving_threshold_mps","elevation_hysteresis_m"}`.
    public struct Parameters: Sendable, Hashable, Codable {
        /// The spike filter's maximum speed, m/s.
        public var maxSpeedMps: Double
        /// The moving threshold, m/s (inclusive).
        public var movingThresholdMps: Double
        /// The elevation hysteresis, metres.
        public var elevationHysteresisM: Double

        /// Parameters as given.
        public init(maxSpeedMps: Double, movingThresholdMps: Double, elevationHysteresisM: Double) {
            self.maxSpeedMps = maxSpeedMps
            self.movingThresholdMps = movingThresholdMps
            self.elevationHysteresisM = elevationHysteresisM
        }

        private enum CodingKeys: String, CodingKey {
            case maxSpeedMps = "max_speed_mps"
            case movingThresholdMps = "moving_threshold_mps"
            case elevationHysteresisM = "elevation_hysteresis_m"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case points, bbox, start, end, splits, params
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case movingTimeS = "moving_time_s"
        case avgSpeedMps = "avg_speed_mps"
        case avgPaceSPerKm = "avg_pace_s_per_km"
        case maxSpeedMps = "max_speed_mps"
        case elevationGainM = "elevation_gain_m"
        case elevationLossM = "elevation_loss_m"
    }

    /// Encodes every field, with `null` for an absent value (never an omitted key).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(points, forKey: .points)
        try c.encode(distanceM, forKey: .distanceM)
        try c.encode(durationS, forKey: .durationS)
        try c.encode(movingTimeS, forKey: .movingTimeS)
        try c.encode(avgSpeedMps, forKey: .avgSpeedMps)
        try c.encode(avgPaceSPerKm, forKey: .avgPaceSPerKm)
        try c.encode(maxSpeedMps, forKey: .maxSpeedMps)
        try c.encode(elevationGainM, forKey: .elevationGainM)
        try c.encode(elevationLossM, forKey: .elevationLossM)
        try c.encode(bbox, forKey: .bbox)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(splits, forKey: .splits)
        try c.encode(params, forKey: .params)
    }
}

/// `[min_lon, min_lat, max_lon, max_lat]` in degrees (plain minima and maxima; a route across
/// the antimeridian gets a box spanning the globe's width, which is still a true bound).
public struct BoundingBox: Sendable, Hashable, Codable {
    /// Westmost longitude.
    public var minLon: Double
    /// Southmost latitude.
    public var minLat: Double
    /// Eastmost longitude.
    public var maxLon: Double
    /// Northmost latitude.
    public var maxLat: Double

    /// The box of one point.
    public init(_ p: TrackPoint) {
        self.init(minLon: p.lon, minLat: p.lat, maxLon: p.lon, maxLat: p.lat)
    }

    /// A box from its edges.
    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }

    /// Grows the box to take in `p`.
    public mutating func extend(_ p: TrackPoint) {
        minLon = min(minLon, p.lon)
        minLat = min(minLat, p.lat)
        maxLon = max(maxLon, p.lon)
        maxLat = max(maxLat, p.lat)
    }

    /// Decodes the four-number array.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(
            minLon: try c.decode(Double.self), minLat: try c.decode(Double.self), maxLon: try c.decode(Double.self),
            maxLat: try c.decode(Double.self))
    }

    /// Encodes as the four-number array.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(minLon)
        try c.encode(minLat)
        try c.encode(maxLon)
        try c.encode(maxLat)
    }
}
