import Foundation
import Testing

@testable import RouteRankerCore

/// GPX in: gpxpy's test files (real tracks nobody here wrote) and hostile documents.
@Suite struct GPXReaderTests {
    static func references() throws -> [String: [String: Any]] {
        try #require(
            try JSONSerialization.jsonObject(with: TestData.data("gpxpy-references.json")) as? [String: [String: Any]])
    }

    static func gpx(_ body: String, version: String = "1.1") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="\(version)" creator="test" xmlns="http://www.topografix.com/GPX/1/\(version == "1.1" ? "1" : "0")">
            \(body)
            </gpx>
            """.utf8)
    }

    static func error(_ data: Data) -> FormatError? {
        do {
            _ = try GPXReader.read(data)
            return nil
        } catch { return error as? FormatError }
    }

    /// Every gpxpy file: the points gpxpy reads, the points our rules keep, and the distance
    /// over them, which must agree with GeographicLib's to 1e-9.
    @Test func gpxpyFilesAgreeWithGeographicLib() throws {
        var checked = 0
        for (file, ref) in try Self.references().sorted(by: { $0.key < $1.key }) {
            let data = try TestData.data("gpxpy/\(file)")
            if let key = ref["error"] as? String {
                let e = Self.error(data)
                #expect(e?.field == "points" && e?.key == "time", "\(file): \(key) \(String(describing: e))")
                continue
            }
            let route = try RouteFile.read(data, fileName: file)
            #expect(route.points.count == (try #require(ref["read"] as? Int)), "\(file)")
            let result = FileStats(file: route, activity: .other)
            #expect(result.ingest.accepted == (try #require(ref["kept"] as? Int)), "\(file)")
            #expect(result.ingest.duplicates == (try #require(ref["duplicates"] as? Int)), "\(file)")
            #expect(result.ingest.dropped == (try #require(ref["dropped"] as? Int)), "\(file)")
            let expected = try #require(ref["distance_m"] as? Double)
            let d = result.stats.distanceM
            #expect(expected == 0 ? d == 0 : abs(d - expected) / expected <= 1e-9, "\(file): \(d) vs \(expected)")
            let duration = try #require(ref["duration_s"] as? Double)
            #expect(abs(result.stats.durationS - duration) < 1e-3, "\(file)")
            checked += 1
        }
        #expect(checked >= 15)
    }

    @Test func readsNamesWaypointsAndTimes() throws {
        let doc = try GPXReader.read(TestData.data("gpxpy/gpx1.0_with_all_fields.gpx"))
        #expect(doc.name == "example name t")
        #expect(doc.points == [TrackPoint(lat: 10.1, lon: -20.2, t: 1_357_041_604, ele: 11.1)])  // no zone: UTC
        #expect(
            doc.annotations == [
                Annotation(lat: 12.3, lon: 45.6, t: 1_357_092_180, text: "example name"),
                Annotation(lat: 13.4, lon: 46.7, t: nil, text: ""),
            ])
        let bom = try GPXReader.read(TestData.data("gpxpy/unicode_with_bom.gpx"))
        #expect(bom.annotations.first?.t == 1_464_343_727.8 && bom.annotations.first?.text == "test")
        let offset = try GPXReader.read(TestData.data("gpxpy/track-with-less-sec-time.gpx"))
        #expect(offset.points.map(\.t) == [1_449_844_993, 1_449_844_993.994])
    }

    @Test func routePointsWhenThereAreNoTracksAndNameFallbacks() throws {
        let rte = Self.gpx(
            """
            <metadata><name>meta</name></metadata>
            <rte><rtept lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></rtept>
            <rtept lat="1.001" lon="2"><time>2020-01-01T00:01:00Z</time></rtept></rte>
            """)
        let doc = try GPXReader.read(rte)
        #expect(doc.points.count == 2 && doc.name == "meta")
        let v10 = Self.gpx("<name>top</name><wpt lat=\"1\" lon=\"2\"><cmt>c</cmt></wpt>", version: "1.0")
        let doc10 = try GPXReader.read(v10)
        #expect(doc10.name == "top" && doc10.annotations.first?.text == "c" && doc10.points.isEmpty)
        let desc = try GPXReader.read(Self.gpx("<wpt lat=\"1\" lon=\"2\"><cmt>c</cmt><desc>d</desc></wpt>"))
        #expect(desc.annotations.first?.text == "d")
    }

    @Test func lookAlikesInExtensionsAreIgnored() throws {
        let doc = try GPXReader.read(
            Self.gpx(
                """
                <trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time>
                <extensions><x:time xmlns:x="urn:x">garbage</x:time><ele>9</ele></extensions></trkpt>
                </trkseg><extensions><trkseg><trkpt lat="5" lon="5"/></trkseg></extensions></trk>
                """))
        #expect(doc.points == [TrackPoint(lat: 1, lon: 2, t: 1_577_836_800)])
    }

    @Test func pointErrorsNameIndexLineAndKey() {
        let missing = Self.gpx(
            """
            <trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"></trkpt></trkseg></trk>
            """)
        let e = Self.error(missing)
        #expect(e?.field == "points" && e?.index == 1 && e?.key == "time" && e?.line == 4, "\(String(describing: e))")
        let cases: [(String, String)] = [
            (#"<trkpt lat="91" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>"#, "lat"),
            (#"<trkpt lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>"#, "lat"),
            (#"<trkpt lat="1" lon="1e"><time>2020-01-01T00:00:00Z</time></trkpt>"#, "lon"),
            (#"<trkpt lat="1" lon="2"><ele>high</ele><time>2020-01-01T00:00:00Z</time></trkpt>"#, "ele"),
            (#"<trkpt lat="1" lon="2"><time>2020-13-01T00:00:00Z</time></trkpt>"#, "time"),
            (#"<trkpt lat="1" lon="2"><time>1969-12-31T23:59:59Z</time></trkpt>"#, "time"),
        ]
        for (pt, key) in cases {
            let e = Self.error(Self.gpx("<trk><trkseg>\(pt)</trkseg></trk>"))
            #expect(e?.index == 0 && e?.key == key, "\(pt): \(String(describing: e))")
        }
    }

    @Test func doctypeAndEntitiesAreRefusedBeforeParsing() {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <gpx version="1.1"><trk><name>&d;&d;&d;&d;</name></trk></gpx>
            """
        #expect(Self.error(Data(billionLaughs.utf8))?.field == "body")
        let external = #"<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "file:///etc/passwd"><gpx version="1.1"/>"#
        #expect(Self.error(Data(external.utf8))?.message.contains("DOCTYPE") == true)
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("<gpx/>".data(using: .utf16LittleEndian)!)
        #expect(Self.error(utf16)?.field == "body")
    }

    @Test func deepNestingAndMalformedXMLAreErrors() {
        let deep = String(repeating: "<x>", count: 10_000) + String(repeating: "</x>", count: 10_000)
        let e = Self.error(Self.gpx("<extensions>\(deep)</extensions>"))
        #expect(e?.field == "body")
        #expect(Self.error(Data("<gpx><trk>".utf8))?.field == "body")
        #expect(Self.error(Data("<kml/>".utf8))?.message.contains("not GPX") == true)
        #expect(Self.error(Data("".utf8))?.field == "body")
    }

    @Test func documentsOverTenMegabytesParse() throws {
        let w = GPXWriter(name: "big")
        let points = (0..<120_000).map {
            TrackPoint(lat: 45 + Double($0) * 1e-5, lon: 14, t: 1e9 + Double($0), ele: 100)
        }
        let body = w.header() + w.chunk(points) + w.footer()
        #expect(body.utf8.count > 10_000_000)
        let doc = try GPXReader.read(Data(body.utf8))
        #expect(doc.points == points && doc.name == "big")
    }
}
