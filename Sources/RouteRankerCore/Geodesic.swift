import CProj

/// Geodesics on the WGS84 ellipsoid: lengths "as GeographicLib's Inverse computes them" (API.md).
///
/// ``distance(from:to:)`` is what the stats use: a fast closed form for short GPS steps
/// (see `GeodesicFastPath.swift` for the formula and its error budget) that hands every other
/// segment to ``inverse(from:to:)``, PROJ's port of Karney's algorithm (accurate to ~15 nm).
/// Both paths are pure functions of their inputs, so the same pair always gives the same bits.
public enum Geodesic {
    /// WGS84 semi-major axis in metres.
    public static let semiMajorAxis = 6_378_137.0
    /// WGS84 flattening.
    public static let flattening = 1 / 298.257_223_563

    /// The geodesic length in metres between two points, as Karney's Inverse computes it,
    /// to a relative error below 4e-8 (in practice ~1e-10, see the golden tests).
    @inlinable
    public static func distance(from p: Coordinate, to q: Coordinate) -> Double {
        if let d = GeodesicFastPath.distance(p, q) { return d }
        return inverse(from: p, to: q).distance
    }

    /// The exact inverse problem: the length of the shortest geodesic from `p` to `q` and its
    /// azimuths (degrees clockwise from north) at both ends. Karney's algorithm via PROJ.
    public static func inverse(from p: Coordinate, to q: Coordinate) -> InverseResult {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: wgs84) { geod_inverse($0, p.lat, p.lon, q.lat, q.lon, &s12, &azi1, &azi2) }
        return InverseResult(distance: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// The direct problem: where a geodesic from `p` with azimuth `azimuth` (degrees clockwise
    /// from north) is after `distance` metres. Karney's algorithm via PROJ.
    public static func direct(from p: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var lat2 = 0.0
        var lon2 = 0.0
        withUnsafePointer(to: wgs84) { geod_direct($0, p.lat, p.lon, azimuth, distance, &lat2, &lon2, nil) }
        return Coordinate(lat: lat2, lon: lon2)
    }

    /// The point `fraction` (0…1) of the way along the geodesic from `p` to `q`.
    public static func interpolate(from p: Coordinate, to q: Coordinate, fraction: Double) -> Coordinate {
        if fraction <= 0 { return p }
        if fraction >= 1 { return q }
        let line = inverse(from: p, to: q)
        return direct(from: p, azimuth: line.initialAzimuth, distance: line.distance * fraction)
    }

    /// The length and end azimuths of a geodesic.
    public struct InverseResult: Sendable, Hashable {
        /// Length in metres.
        public var distance: Double
        /// Azimuth at the start, degrees clockwise from north.
        public var initialAzimuth: Double
        /// Azimuth at the end, degrees clockwise from north.
        public var finalAzimuth: Double
    }

    /// PROJ's precomputed series for WGS84; read-only after initialisation, so sharing it is safe.
    private static let wgs84: geod_geodesic = {
        var g = geod_geodesic()
        geod_init(&g, semiMajorAxis, flattening)
        return g
    }()
}
