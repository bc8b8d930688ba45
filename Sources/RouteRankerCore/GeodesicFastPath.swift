/// The fast path of ``Geodesic/distance(from:to:)``: a closed form for short steps.
///
/// The squared length is expanded around the segment's mid-latitude φm (an even series in
/// Δφ, Δλ because the length is symmetric in its end points, so no odd terms appear):
///
///     d² = M²Δφ² + N²cos²φm·Δλ²                                (the local flat metric)
///        − R²·[Δφ²Δλ²(1 − ⅔cos²φm)/4 + cos²φm·sin²φm·Δλ⁴/12]    (fourth order, from the sphere)
///
/// with M and N the WGS84 meridian and prime-vertical radii at φm and R² = M·N. The first
/// line alone is off by up to ~(d/R)²·tan²φ/12 (7e-8 at 1 km and 80°); the second removes that,
/// leaving terms of order e²·(d/R)²·tan²φ and (d/R)⁴·tan⁴φ, below 2e-9 for d ≤ 1 km and
/// |φm| ≤ 80°. Outside that domain (longer steps, the polar caps, the antimeridian, where Δλ
/// is large) it returns nil and the caller uses Karney's algorithm.
///
/// Speed (≥ 50 M segments/s): no trigonometric call — cos²φm is a degree-9 polynomial — one
/// division, one square root; and the constants are literals, because a `static let` read
/// from another module goes through a lazy-initialisation accessor on every call.
@usableFromInline
enum GeodesicFastPath {
    /// Longest step handled here, squared (m²).
    @inlinable static var maxDistanceSquared: Double { 1_000_000 }
    /// Highest |mid-latitude| handled here, degrees.
    @inlinable static var maxLatitude: Double { 80 }
    /// π/180.
    @inlinable static var radiansPerDegree: Double { 0.017453292519943295 }
    /// Largest |Δφ| and |Δλ| handled here (1°, in radians).
    @inlinable static var maxDelta: Double { 0.017453292519943295 }
    /// a², a = 6378137 m.
    @inlinable static var a2: Double { 40_680_631_590_769.0 }
    /// e² = f(2 − f), f = 1/298.257223563.
    @inlinable static var e2: Double { 0.0066943799901413165 }
    /// (1 − e²)².
    @inlinable static var oneMinusE2Squared: Double { 0.9866560547431698 }
    /// a²(1 − e²).
    @inlinable static var a2OneMinusE2: Double { 40_408_299_984_661.445 }

    /// The length in metres, or nil when the step is outside the fast path's domain.
    @inlinable
    static func distance(_ p: Coordinate, _ q: Coordinate) -> Double? {
        let latMid = (p.lat + q.lat) * 0.5
        let dLat = (q.lat - p.lat) * radiansPerDegree
        let dLon = (q.lon - p.lon) * radiansPerDegree
        let phi = latMid * radiansPerDegree
        let c2 = cosineSquared(phi * phi)
        let s2 = 1 - c2
        let w = 1 / (1 - e2 * s2)
        let dLat2 = dLat * dLat
        let dLon2 = dLon * dLon
        let flat = a2 * w * (c2 * dLon2 + oneMinusE2Squared * w * w * dLat2)
        let quartic = dLat2 * dLon2 * (1 - c2 * (2.0 / 3.0)) * 0.25 + c2 * s2 * dLon2 * dLon2 * (1.0 / 12.0)
        let d2 = flat - a2OneMinusE2 * w * w * quartic
        // The Δ bounds keep the quartic term a small correction (so d2 > 0) for any input;
        // the antimeridian (|Δλ| near 360°) lands there too.
        guard d2 <= maxDistanceSquared, abs(latMid) <= maxLatitude, abs(dLat) <= maxDelta, abs(dLon) <= maxDelta
        else { return nil }
        return d2.squareRoot()
    }

    /// cos²φ for x = φ², |φ| ≤ 80°: the degree-9 polynomial interpolating it at Chebyshev
    /// nodes (absolute error < 6e-16, relative < 2e-14), evaluated by Estrin's scheme so the
    /// dependency chain is short. Coefficients from mpmath at 50 digits.
    @inlinable
    static func cosineSquared(_ x: Double) -> Double {
        let x2 = x * x
        let x4 = x2 * x2
        let p01 = 0.9999999999999997 - 0.9999999999999692 * x
        let p23 = 0.33333333333281284 - 0.04444444444102432 * x
        let p45 = 0.0031746031631853557 - 0.00014109345251931565 * x
        let p67 = 4.275534216659189e-06 - 9.394978128307132e-08 * x
        let p89 = 1.5579793682590337e-09 - 1.8470650679924604e-11 * x
        return (p01 + p23 * x2) + (p45 + p67 * x2) * x4 + p89 * (x4 * x4)
    }
}
