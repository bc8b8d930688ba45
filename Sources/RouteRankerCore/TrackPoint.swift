/// One GPS fix of a route: `{"lat","lon","t","ele"?,"acc"?}` in API.md.
///
/// The synthesised `Codable` is for storage and output (absent `ele`/`acc` are omitted); request
/// bodies go through ``ValidatedPoints`` or the format readers, which enforce API.md's rules.
public struct TrackPoint: Sendable, Hashable, Codable {
    /// Latitude in degrees, [-90, 90].
    public var lat: Double
    /// Longitude in degrees, [-180, 180].
    public var lon: Double
    /// Unix epoch seconds, fractions allowed, in (0, 253402300799].
    public var t: Double
    /// Elevation in metres, when known.
    public var ele: Double?
    /// Horizontal accuracy in metres (≥ 0), when known.
    public var acc: Double?

    /// A point; no validation (see ``PointValidation``).
    public init(lat: Double, lon: Double, t: Double, ele: Double? = nil, acc: Double? = nil) {
        self.lat = lat
        self.lon = lon
        self.t = t
        self.ele = ele
        self.acc = acc
    }

    /// Its position, for the geodesic functions.
    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }

    /// The points ordered by `t`, equal times keeping their order: how JSON and GPX bodies are
    /// taken before the ingest filter (API.md). Stable by construction, not by the library's promise.
    public static func sortedByTime(_ points: some Sequence<TrackPoint>) -> [TrackPoint] {
        points.enumerated().sorted { a, b in
            a.element.t < b.element.t || (a.element.t == b.element.t && a.offset < b.offset)
        }.map(\.element)
    }
}

/// A note along the way: `{"lat","lon","t","text"}`, `t` being `null` when unknown.
public struct Annotation: Sendable, Hashable, Codable {
    /// Latitude in degrees.
    public var lat: Double
    /// Longitude in degrees.
    public var lon: Double
    /// Unix epoch seconds, or nil (encoded as `null`).
    public var t: Double?
    /// The note.
    public var text: String

    /// An annotation; no validation.
    public init(lat: Double, lon: Double, t: Double?, text: String) {
        self.lat = lat
        self.lon = lon
        self.t = t
        self.text = text
    }

    private enum CodingKeys: String, CodingKey { case lat, lon, t, text }

    /// Encodes `t` as an explicit `null` when absent, as API.md's shape shows.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lat, forKey: .lat)
        try c.encode(lon, forKey: .lon)
        try c.encode(t, forKey: .t)
        try c.encode(text, forKey: .text)
    }
}
