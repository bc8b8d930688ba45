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
/// cos²φm is a Taylor polynomial in φm² (15 terms, exact to ~1e-16 on |φm| ≤ 80°) rather
/// than `cos`: it is several times cheaper than glibc's `cos` and vectorises.
@usableFromInline
enum GeodesicFastPath {
    @usableFromInline static let maxDistanceSquared = 1000.0 * 1000.0
    @usableFromInline static let maxLatitude = 80.0
    @usableFromInline static let radiansPerDegree = Double.pi / 180
    @usableFromInline static let maxDelta = radiansPerDegree  // 1°
    @usableFromInline static let a2 = Geodesic.semiMajorAxis * Geodesic.semiMajorAxis
    @usableFromInline static let e2 = Geodesic.flattening * (2 - Geodesic.flattening)
    @usableFromInline static let oneMinusE2Squared = (1 - e2) * (1 - e2)
    @usableFromInline static let a2OneMinusE2 = a2 * (1 - e2)

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

    /// cos²φ = (1 + cos 2φ)/2 as a polynomial in x = φ²: Σ (−1)ᵏ 2²ᵏ⁻¹ xᵏ/(2k)!.
    @inlinable
    static func cosineSquared(_ x: Double) -> Double {
        var r = 4.40219281491167e-22
        r = r * x - 8.320144420183057e-20
        r = r * x + 1.3520234682797467e-17
        r = r * x - 1.8657923862260506e-15
        r = r * x + 2.1549902060910883e-13
        r = r * x - 2.0472406957865337e-11
        r = r * x + 1.5661391322766984e-09
        r = r * x - 9.39683479366019e-08
        r = r * x + 4.275559831115387e-06
        r = r * x - 0.00014109347442680775
        r = r * x + 0.0031746031746031746
        r = r * x - 0.044444444444444446
        r = r * x + 0.3333333333333333
        r = r * x - 1.0
        return r * x + 1.0
    }
}
