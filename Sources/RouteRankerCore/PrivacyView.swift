/// A circle whose points the owner hides from everyone else (API.md "Privacy zones").
public struct PrivacyZone: Sendable, Hashable, Codable {
    /// Centre latitude, degrees.
    public var lat: Double
    /// Centre longitude, degrees.
    public var lon: Double
    /// Radius in metres (the API takes 100–2000).
    public var radiusM: Double

    /// A zone.
    public init(lat: Double, lon: Double, radiusM: Double) {
        self.lat = lat
        self.lon = lon
        self.radiusM = radiusM
    }

    /// Inside means a geodesic distance to the centre of at most the radius.
    public func contains(_ c: Coordinate) -> Bool {
        Geodesic.distance(from: Coordinate(lat: lat, lon: lon), to: c) <= radiusM
    }

    /// Whether any of `zones` contains `c`.
    public static func hides(_ c: Coordinate, zones: [PrivacyZone]) -> Bool {
        zones.contains { $0.contains(c) }
    }

    private enum CodingKeys: String, CodingKey {
        case lat, lon
        case radiusM = "radius_m"
    }
}

/// `stats.start`, `stats.end` and `stats.bbox` over the points another user can see.
///
/// Feed it the kept points in order (in buckets, as they stream out of the database) with
/// ``add(_:)``, skipping hidden ones or letting ``add(_:hiddenBy:)`` skip them; then
/// ``apply(to:)`` replaces those three fields. The other stats stay those of the whole route.
public struct VisibleExtent: Sendable, Hashable {
    /// The first visible point.
    public private(set) var start: RouteStats.Endpoint?
    /// The last visible point.
    public private(set) var end: RouteStats.Endpoint?
    /// The box of the visible points.
    public private(set) var bbox: BoundingBox?

    /// Nothing visible yet.
    public init() {}

    /// The extent of the points of `points` that `isHidden` lets through.
    public init(points: some Sequence<TrackPoint>, isHidden: (TrackPoint) -> Bool) {
        for p in points where !isHidden(p) { add(p) }
    }

    /// Takes in a visible point (points come in time order).
    public mutating func add(_ p: TrackPoint) {
        if start == nil { start = RouteStats.Endpoint(p) }
        end = RouteStats.Endpoint(p)
        if bbox == nil { bbox = BoundingBox(p) } else { bbox?.extend(p) }
    }

    /// Takes in `p` unless one of `zones` hides it; returns whether it is visible.
    @discardableResult
    public mutating func add(_ p: TrackPoint, hiddenBy zones: [PrivacyZone]) -> Bool {
        if PrivacyZone.hides(p.coordinate, zones: zones) { return false }
        add(p)
        return true
    }

    /// `stats` with start, end and bbox replaced by the visible ones.
    public func apply(to stats: RouteStats) -> RouteStats {
        var s = stats
        s.start = start
        s.end = end
        s.bbox = bbox
        return s
    }
}
