/// A position on the WGS84 ellipsoid, in degrees.
///
/// `lat` is in [-90, 90] and `lon` in [-180, 180] for every point the ingest rules accept;
/// the geodesic functions also take longitudes outside that range.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Latitude in degrees, positive north.
    public var lat: Double
    /// Longitude in degrees, positive east.
    public var lon: Double

    /// A coordinate from latitude and longitude in degrees.
    @inlinable
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
