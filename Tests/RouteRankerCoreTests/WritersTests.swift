import Foundation
import Testing

@testable import RouteRankerCore

/// Downloads: GPX, GeoJSON, CSV, and the number and time text they share.
@Suite struct WritersTests {
    static let points = [
        TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000, ele: 300),
        TrackPoint(lat: 46.0500001, lon: -0.00001, t: 1_700_000_000.1234567, acc: 3),
        TrackPoint(lat: -89.9999999, lon: 180, t: 1_700_000_001.999, ele: -0.5),
    ]

    @Test func numbersAreShortestPositionalDecimals() {
        let cases: [(Double, String)] = [
            (5, "5"), (-0.5, "-0.5"), (0.00001, "0.00001"), (1.5e-7, "0.00000015"), (1e16, "10000000000000000"),
            (1.2345e17, "123450000000000000"), (253_402_300_799, "253402300799"), (46.0500001, "46.0500001"),
            (0.1 + 0.2, "0.30000000000000004"), (-1.25e-10, "-0.000000000125"), (0, "0"),
        ]
        for (x, text) in cases {
            #expect(DecimalNumbers.format(x) == text)
            #expect(DecimalNumbers.parse(text) == x)
            var out = "[é,"  // `append` mends only what it wrote, after any text already there
            DecimalNumbers.append(x, to: &out)
            #expect(out == "[é," + text)
        }
        for bad in ["", "+", ".", "1e", "1e+", "nan", "inf", "0x10", " 1", "1 ", "1.2.3", "--1", "e5"] {
            #expect(DecimalNumbers.parse(bad) == nil, "\(bad)")
        }
        #expect(
            DecimalNumbers.parse("5.") == 5 && DecimalNumbers.parse(".5") == 0.5
                && DecimalNumbers.parse("+1E-2") == 0.01)
    }

    @Test func timesFormatWithMillisecondsAndParseBackExactly() {
        #expect(RFC3339.format(1_700_000_000) == "2023-11-14T22:13:20.000Z")
        #expect(RFC3339.format(1_700_000_000.5) == "2023-11-14T22:13:20.500Z")
        #expect(RFC3339.format(1_700_000_000.1234567) == "2023-11-14T22:13:20.1234567Z")
        #expect(RFC3339.format(951_782_400) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339.format(253_402_300_799) == "9999-12-31T23:59:59.000Z")
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<2_000 {
            let t = Double.random(in: 1...253_402_300_799, using: &rng)
            #expect(RFC3339.parse(RFC3339.format(t)) == t)
        }
    }

    @Test func timesParseInTheirUsualForms() {
        let t = 1_449_845_593.0  // 2015-12-11T14:53:13Z
        for text in [
            "2015-12-11T14:53:13Z", "2015-12-11T14:53:13.000Z", "2015-12-11t14:53:13z", "2015-12-11 14:53:13",
            "2015-12-11T15:53:13+01:00", "2015-12-11T15:53:13+0100", "2015-12-11T15:53:13+01",
            "2015-12-11T09:23:13-05:30",
            " 2015-12-11T14:53:13Z\n",
        ] {
            #expect(RFC3339.parse(text) == t, "\(text)")
        }
        #expect(RFC3339.parse("2015-12-11T14:53:13.25Z") == t + 0.25)
        #expect(RFC3339.parse("2015-12-11T14:53:13,5Z") == t + 0.5)
        for bad in [
            "2015-12-11", "2015-12-11T14:53", "2015-02-29T00:00:00Z", "2015-12-11T24:00:00Z", "2015-12-11T14:53:13.Z",
            "2015-12-11T14:53:13+1", "2015-12-11T14:53:13 Z", "15-12-11T14:53:13Z", "2015-12-11T14:53:13Zx",
        ] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func gpxOutReadsBackAsTheSamePoints() throws {
        let annotations = [
            Annotation(lat: 1, lon: 2, t: 1_700_000_000.5, text: "a <b> & \"c\""),
            Annotation(lat: 3, lon: 4, t: nil, text: "x"),
        ]
        var w = DownloadWriter(format: .gpx, id: "r1", name: "Morning <run> & co", annotations: annotations)
        let doc = w.header() + w.chunk(Self.points[..<1]) + w.chunk(Self.points[1...]) + w.footer()
        #expect(doc.contains("<time>2023-11-14T22:13:20.000Z</time>"))
        let back = try GPXReader.read(Data(doc.utf8))
        #expect(back.name == "Morning <run> & co")
        #expect(back.points == Self.points.map { TrackPoint(lat: $0.lat, lon: $0.lon, t: $0.t, ele: $0.ele) })
        #expect(back.annotations == annotations)
        #expect(XMLText.escape("a\u{1}b\u{FFFF}") == "ab")
        let empty = DownloadWriter.render(.gpx, id: "r", name: nil, points: [])
        #expect(try GPXReader.read(Data(empty.utf8)).points.isEmpty)
    }

    /// The bytes a GPX download writes, point by point, against the text built from the shared
    /// number and time formats.
    @Test func gpxBytesAreTheTrackPointsText() {
        var rng = SeededGenerator(seed: 20_261_126)
        var points: [TrackPoint] = []
        for i in 0..<3000 {
            let t = 1_700_000_000 + Double(i) * [1, 0.5, 0.001, 1.234_567][i % 4]
            let ele: Double? = i % 5 == 0 ? nil : (Double.random(in: -400..<9000, using: &rng) * 10).rounded() / 10
            points.append(
                TrackPoint(
                    lat: Double.random(in: -90...90, using: &rng), lon: (Double(i) * 0.000_013 - 180),
                    t: i % 7 == 0 ? Double.random(in: 0..<4e9, using: &rng) : t, ele: ele))
        }
        var expected = ""
        for p in points {
            expected += "<trkpt lat=\"\(DecimalNumbers.format(p.lat))\" lon=\"\(DecimalNumbers.format(p.lon))\">"
            if let ele = p.ele { expected += "<ele>\(DecimalNumbers.format(ele))</ele>" }
            expected += "<time>\(RFC3339.general(p.t))</time></trkpt>\n"
        }
        var w = DownloadWriter(format: .gpx, id: "r", name: nil)
        var bytes: [UInt8] = []
        w.chunk(points[..<1000], into: &bytes)
        w.chunk(points[1000...], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(w.chunk(points) == expected)
    }

    @Test func geojsonIsAFeatureWithALineStringAndCoordTimes() throws {
        var w = DownloadWriter(format: .geojson, id: "r1", name: "n")
        let doc = w.header() + w.chunk(Self.points[..<2]) + w.chunk(Self.points[2...]) + w.chunk([]) + w.footer()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(doc.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "Feature")
        let geometry = try #require(object["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        let coordinates = try #require(geometry["coordinates"] as? [[Double]])
        #expect(coordinates == [[14.5, 46.05, 300], [-0.00001, 46.0500001], [180, -89.9999999, -0.5]])
        let properties = try #require(object["properties"] as? [String: Any])
        let times = try #require(properties["coordTimes"] as? [String])
        #expect(times.map { RFC3339.parse($0)! } == Self.points.map(\.t))
        #expect(properties["name"] as? String == "n")
    }

    @Test func csvHasTheHeaderLFAndEmptyEle() {
        let doc = DownloadWriter.render(.csv, id: "r", name: nil, points: Self.points)
        #expect(
            doc == """
                lat,lon,t,ele
                46.05,14.5,1700000000,300
                46.0500001,-0.00001,1700000000.1234567,
                -89.9999999,180,1700000001.999,-0.5

                """)
        #expect(!doc.contains("\r"))
    }

    @Test func everyFormatHasItsContentType() {
        #expect(
            DownloadFormat.allCases.map(\.contentType) == [
                "application/json", "application/x-ndjson", "text/plain", "application/gpx+xml", "application/geo+json",
                "text/csv",
            ])
        #expect(DownloadWriter.render(.text, id: "r", name: nil, points: Self.points).split(separator: "#").count == 3)
        #expect(
            DownloadWriter.render(.ndjson, id: "r", name: nil, points: Self.points).split(separator: "\n").count == 3)
    }
}
