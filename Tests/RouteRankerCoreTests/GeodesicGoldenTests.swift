import Foundation
import Testing

@testable import RouteRankerCore

/// Geodesy against GeographicLib's Inverse (Python `geographiclib` 2.1), computed by
/// `scripts/make-golden-geodesics` into `Data/geodesic-golden.csv` and `Data/track-*.csv`.
@Suite struct GeodesicGoldenTests {
    struct Row {
        var kind: Substring
        var p: Coordinate
        var q: Coordinate
        var s12: Double
    }

    static func rows() throws -> [Row] {
        try TestData.csvRows("geodesic-golden.csv").map { f in
            Row(
                kind: f[0], p: Coordinate(lat: Double(f[1])!, lon: Double(f[2])!),
                q: Coordinate(lat: Double(f[3])!, lon: Double(f[4])!), s12: Double(f[5])!)
        }
    }

    @Test func shortSegmentsWithin4e8() throws {
        let rows = try Self.rows().filter { $0.kind == "short" || $0.kind == "special" }
        #expect(rows.count > 3000)
        var worst = 0.0
        var fast = 0
        for r in rows where r.s12 > 0 && r.s12 <= 1000 {
            let d = Geodesic.distance(from: r.p, to: r.q)
            if GeodesicFastPath.distance(r.p, r.q) != nil { fast += 1 }
            let rel = abs(d - r.s12) / r.s12
            worst = max(worst, rel)
            #expect(rel <= 4e-8, "\(r)")
        }
        print("short segments: worst relative error \(worst), fast path \(fast)/\(rows.count)")
        #expect(fast > 2500)
    }

    @Test func fastPathAloneIsAccurateOnItsDomain() throws {
        var worst = 0.0
        for r in try Self.rows() where r.s12 >= 1 {
            guard let d = GeodesicFastPath.distance(r.p, r.q) else { continue }
            worst = max(worst, abs(d - r.s12) / r.s12)
        }
        print("fast path: worst relative error \(worst) (segments ≥ 1 m)")
        #expect(worst <= 4e-8)
    }

    @Test func longAndAntipodalMatchKarney() throws {
        var worst = 0.0
        for r in try Self.rows() where r.kind == "medium" || r.kind == "long" || r.kind == "antipodal" {
            let d = Geodesic.distance(from: r.p, to: r.q)
            worst = max(worst, abs(d - r.s12) / r.s12)
            #expect(abs(d - r.s12) <= 1e-12 * r.s12 + 1e-8, "\(r)")
        }
        print("long/antipodal: worst relative error \(worst)")
    }

    @Test(arguments: ["equator", "midlat", "arctic", "antimeridian"])
    func wholeTracksWithin1e9(name: String) throws {
        let refs = try #require(
            try JSONSerialization.jsonObject(with: TestData.data("track-references.json")) as? [String: Any])
        let ref = try #require((refs[name] as? [String: Any])?["distance_m"] as? Double)
        let pts = try TestData.csvRows("track-\(name).csv").map { Coordinate(lat: Double($0[0])!, lon: Double($0[1])!) }
        var total = 0.0
        for i in 1..<pts.count { total += Geodesic.distance(from: pts[i - 1], to: pts[i]) }
        let rel = abs(total - ref) / ref
        print("track \(name): relative error \(rel)")
        #expect(rel <= 1e-9)
    }
}

/// The exact helpers around PROJ.
@Suite struct GeodesicHelpersTests {
    @Test func directAndInterpolateAgreeWithInverse() {
        let p = Coordinate(lat: 60.1, lon: 24.9)
        let q = Geodesic.direct(from: p, azimuth: 123.4, distance: 12_345.678)
        let line = Geodesic.inverse(from: p, to: q)
        #expect(abs(line.distance - 12_345.678) < 1e-8)
        #expect(abs(line.initialAzimuth - 123.4) < 1e-9)
        let mid = Geodesic.interpolate(from: p, to: q, fraction: 0.25)
        #expect(abs(Geodesic.inverse(from: p, to: mid).distance - 12_345.678 / 4) < 1e-8)
        #expect(Geodesic.interpolate(from: p, to: q, fraction: 0) == p)
        #expect(Geodesic.interpolate(from: p, to: q, fraction: 1) == q)
    }

    @Test func fastPathHandsOverOutsideItsDomain() {
        let p = Coordinate(lat: 45, lon: 10)
        #expect(GeodesicFastPath.distance(p, Coordinate(lat: 45.005, lon: 10)) != nil)
        #expect(GeodesicFastPath.distance(p, Coordinate(lat: 45.01, lon: 10)) == nil)  // > 1 km
        #expect(GeodesicFastPath.distance(Coordinate(lat: 80.5, lon: 0), Coordinate(lat: 80.5001, lon: 0)) == nil)
        #expect(GeodesicFastPath.distance(Coordinate(lat: 0, lon: 179.9999), Coordinate(lat: 0, lon: -179.9999)) == nil)
        #expect(Geodesic.distance(from: Coordinate(lat: 0, lon: 179.9999), to: Coordinate(lat: 0, lon: -179.9999)) < 23)
        #expect(Geodesic.distance(from: p, to: p) == 0)
    }
}

/// The fast path's literal constants and polynomial.
@Suite struct GeodesicFastPathTests {
    @Test func literalConstantsAreTheWGS84Values() {
        let f = Geodesic.flattening
        let e2 = f * (2 - f)
        #expect(GeodesicFastPath.e2 == e2)
        #expect(GeodesicFastPath.a2 == Geodesic.semiMajorAxis * Geodesic.semiMajorAxis)
        #expect(GeodesicFastPath.oneMinusE2Squared == (1 - e2) * (1 - e2))
        #expect(GeodesicFastPath.a2OneMinusE2 == GeodesicFastPath.a2 * (1 - e2))
        #expect(GeodesicFastPath.radiansPerDegree == Double.pi / 180)
    }

    @Test func cosineSquaredPolynomialIsAccurateTo80Degrees() {
        var worst = 0.0
        for i in 0...80_000 {
            let phi = Double(i) / 1000 * Double.pi / 180
            let exact = cos(phi) * cos(phi)
            worst = max(worst, abs(GeodesicFastPath.cosineSquared(phi * phi) - exact) / exact)
        }
        #expect(worst < 5e-14)
    }
}
