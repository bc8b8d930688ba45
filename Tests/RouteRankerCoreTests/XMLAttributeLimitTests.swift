import Foundation
import Testing

@testable import RouteRankerCore

/// Issue 43 #6: an element with hundreds of thousands of attributes took libxml2 and FoundationXML
/// seconds (quadratic in their number). Such elements are refused on the bytes, before the parser.
@Suite struct XMLAttributeLimitTests {
    static func attributes(_ count: Int) -> String {
        (0..<count).map { " a\($0)=\"1\"" }.joined()
    }

    static func gpx(trkptAttributes extra: Int, points: Int = 1) -> Data {
        let point = "<trkpt lat=\"48\" lon=\"11\"\(attributes(extra))><time>2026-01-01T00:00:00Z</time></trkpt>\n"
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>
            \(String(repeating: point, count: points))</trkseg></trk>
            </gpx>
            """.utf8)
    }

    static func tcx(trackpointAttributes extra: Int) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase><Activities><Activity Sport="Running"><Lap><Track>
            <Trackpoint\(attributes(extra))><Time>2026-01-01T00:00:00Z</Time>
            <Position><LatitudeDegrees>48</LatitudeDegrees><LongitudeDegrees>11</LongitudeDegrees></Position>
            </Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """.utf8)
    }

    static func refusal(_ read: () throws -> Void) -> FormatError? {
        do {
            try read()
            return nil
        } catch { return error as? FormatError }
    }

    /// The outside test's case: a `trkpt` with 300,000 attributes (3.3 MB) took 20 s; now it is a
    /// `body` error naming the limit and the line, found on the bytes.
    @Test func gpxElementWithHugeAttributeCountIsRefused() throws {
        let data = Self.gpx(trkptAttributes: 300_000)
        #expect(data.count > 3_000_000)
        let error = try #require(Self.refusal { _ = try GPXReader.read(data) })
        #expect(error.field == "body")
        #expect(error.message.contains("at most 64 attributes"))
        #expect(error.line == 4)
    }

    @Test func tcxElementWithHugeAttributeCountIsRefused() throws {
        let error = try #require(Self.refusal { _ = try TCXReader.read(Self.tcx(trackpointAttributes: 300_000)) })
        #expect(error.field == "body")
        #expect(error.message.contains("at most 64 attributes"))
        #expect(error.line == 3)
    }

    /// 64 attributes (the two coordinates and 62 more) pass; 65 do not.
    @Test func theLimitIsSixtyFourAttributes() throws {
        #expect(try GPXReader.read(Self.gpx(trkptAttributes: 62)).points.count == 1)
        #expect(Self.refusal { _ = try GPXReader.read(Self.gpx(trkptAttributes: 63)) } != nil)
        #expect(try TCXReader.read(Self.tcx(trackpointAttributes: 64)).points.count == 1)
        #expect(Self.refusal { _ = try TCXReader.read(Self.tcx(trackpointAttributes: 65)) } != nil)
    }

    /// `=` in text, comments, CDATA, processing instructions and quoted values is not an attribute.
    @Test func onlyAttributesCount() throws {
        let many = String(repeating: "=", count: 1000)
        let data = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(many)" xmlns="http://www.topografix.com/GPX/1/1">
            <!-- \(many) --><?note \(many)?>
            <trk><name>\(many)</name><desc><![CDATA[\(many) <a b=1>]]></desc><trkseg>
            <trkpt lat='48' lon="11"><time>2026-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8)
        let document = try GPXReader.read(data)
        #expect(document.points.count == 1)
        #expect(document.name == many)
    }

    /// Reading stays linear in the document: twice the points (each with the most attributes
    /// allowed) take about twice as long, not four times. Measured as a ratio of the best of three.
    @Test func readingIsLinearInAttributes() throws {
        func best(_ data: Data) throws -> Double {
            var times: [Double] = []
            for _ in 0..<3 {
                let clock = ContinuousClock()
                let elapsed = try clock.measure { _ = try GPXReader.read(data) }
                times.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            }
            return times.min() ?? 0
        }
        let small = try best(Self.gpx(trkptAttributes: 62, points: 1_000))
        let large = try best(Self.gpx(trkptAttributes: 62, points: 2_000))
        #expect(large / small < 3, "2,000 points took \(large) s, 1,000 took \(small) s")
    }
}
