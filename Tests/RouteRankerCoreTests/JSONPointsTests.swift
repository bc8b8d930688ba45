import Foundation
import Testing

@testable import RouteRankerCore

/// JSON bodies: `points` and `annotations` arrays validated per API.md.
@Suite struct JSONPointsTests {
    struct CreateBody: Decodable {
        var name: String?
        var points: ValidatedPoints?
        var annotations: ValidatedAnnotations?
    }

    static func decode(_ json: String) throws -> CreateBody {
        try JSONDecoder().decode(CreateBody.self, from: Data(json.utf8))
    }

    static func error(_ json: String) -> FormatError? {
        do {
            _ = try decode(json)
            return nil
        } catch { return error as? FormatError }
    }

    @Test func decodesPointsAndAnnotations() throws {
        let body = try Self.decode(
            """
            {"name":"x","extra":{"a":[1]},"points":[{"lat":1,"lon":2,"t":3,"ele":null,"acc":0,"hdop":true},
            {"lat":-90,"lon":180,"t":253402300799,"ele":-12.5}],
            "annotations":[{"lat":1,"lon":2,"t":null,"text":"café"},{"lat":1,"lon":2,"text":"", "t": 5}]}
            """)
        #expect(
            body.points?.points == [
                TrackPoint(lat: 1, lon: 2, t: 3, acc: 0),
                TrackPoint(lat: -90, lon: 180, t: 253_402_300_799, ele: -12.5),
            ])
        #expect(
            body.annotations?.annotations == [
                Annotation(lat: 1, lon: 2, t: nil, text: "café"), Annotation(lat: 1, lon: 2, t: 5, text: ""),
            ])
        #expect(try JSONPoints.decode(Data("[]".utf8)) == [])
    }

    @Test(arguments: [
        (#"[{"lat":1,"lon":2,"t":3},{"lat":"1","lon":2,"t":3}]"#, 1, "lat"),
        (#"[{"lat":1,"lon":2,"t":3},{"lat":1,"lon":false,"t":3}]"#, 1, "lon"),
        (#"[{"lat":1,"lon":2,"t":0}]"#, 0, "t"),
        (#"[{"lat":1,"lon":2,"t":253402300799.001}]"#, 0, "t"),
        (#"[{"lat":1,"lon":2}]"#, 0, "t"),
        (#"[{"lat":1,"lon":2,"t":3,"acc":-0.5}]"#, 0, "acc"),
        (#"[{"lat":1,"lon":2,"t":3,"ele":"high"}]"#, 0, "ele"),
        (#"[{"lat":1,"lon":-180.0000001,"t":3}]"#, 0, "lon"),
        (#"[{"lat":1,"lon":2,"t":3},{"lat":1,"lon":2,"t":3},{"lon":2,"t":3}]"#, 2, "lat"),
        (#"[{"lat":1,"lon":2,"t":[3]}]"#, 0, "t"),
    ])
    func pointErrorsNameIndexAndKey(points: String, index: Int, key: String) {
        let e = Self.error(#"{"points":"# + points + "}")
        #expect(e?.field == "points" && e?.index == index && e?.key == key, "\(String(describing: e))")
        #expect(e?.message.hasPrefix("point \(index): \(key)") == true, "\(String(describing: e))")
    }

    @Test func aPointThatIsNotAnObjectHasNoKey() {
        let e = Self.error(#"{"points":[{"lat":1,"lon":2,"t":3}, 5]}"#)
        #expect(e == FormatError(field: "points", index: 1, key: nil, message: "point 1: must be an object"))
        #expect(Self.error(#"{"points":{"lat":1}}"#)?.field == "points")
    }

    @Test func annotationErrors() {
        let e = Self.error(#"{"annotations":[{"lat":1,"lon":2,"text":"a"},{"lat":1,"lon":2,"text":7}]}"#)
        #expect(e?.field == "annotations" && e?.index == 1 && e?.key == "text")
        let e2 = Self.error(#"{"annotations":[{"lat":95,"lon":2,"text":"a"}]}"#)
        #expect(e2?.field == "annotations" && e2?.index == 0 && e2?.key == "lat")
        let e3 = Self.error(#"{"annotations":[{"lat":5,"lon":2}]}"#)
        #expect(e3?.key == "text")
    }

    @Test func writerOmitsAbsentMembersAndRoundTrips() throws {
        let pts = [
            TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000.25, ele: 0, acc: 5), TrackPoint(lat: 1, lon: 2, t: 3),
        ]
        let doc = DownloadWriter.render(.json, id: "r\"1", name: nil, points: pts)
        #expect(
            doc
                == #"{"id":"r\"1","points":[{"lat":46.05,"lon":14.5,"t":1700000000.25,"ele":0,"acc":5},{"lat":1,"lon":2,"t":3}]}"#
        )
        struct Download: Decodable {
            var id: String
            var points: ValidatedPoints
        }
        let back = try JSONDecoder().decode(Download.self, from: Data(doc.utf8))
        #expect(back.id == "r\"1" && back.points.points == pts)
        #expect(JSONPoints.string("a\u{1}\n\u{2028}é") == #""a\u0001\n\u2028é""#)
    }
}
