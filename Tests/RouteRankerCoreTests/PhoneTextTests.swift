import Testing

@testable import RouteRankerCore

/// The phone format `lat,lon,t[,ele]#…`.
@Suite struct PhoneTextTests {
    static func read(_ text: String) throws -> [TrackPoint] {
        var r = PhoneTextReader()
        return try r.feed(Array(text.utf8)) + r.finish()
    }

    static func error(_ text: String) -> FormatError? {
        do {
            _ = try read(text)
            return nil
        } catch { return error as? FormatError }
    }

    @Test func readsPointsWithAndWithoutElevation() throws {
        let pts = try Self.read("46.05,14.5,1700000000#46.06,14.51,1700000001.5,300.25")
        #expect(
            pts == [
                TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000),
                TrackPoint(lat: 46.06, lon: 14.51, t: 1_700_000_001.5, ele: 300.25),
            ])
    }

    @Test func whitespaceAroundSeparatorsAndATrailingHashAreIgnored() throws {
        let expected = [TrackPoint(lat: 1, lon: 2, t: 3), TrackPoint(lat: 4, lon: 5, t: 6, ele: 7)]
        #expect(try Self.read(" 1 , 2 ,\t3 #\n4,5,6,7#") == expected)
        #expect(try Self.read("1,2,3#4,5,6,7 # \r\n") == expected)
        #expect(try Self.read("") == [])
        #expect(try Self.read("  \n") == [])
        #expect(try Self.read("1.0E-5,2,3") == [TrackPoint(lat: 0.00001, lon: 2, t: 3)])
    }

    @Test func everyChunkingGivesTheSamePoints() throws {
        let text = " 46.05,14.5,1700000000 # 46.06 , 14.51 ,1700000001.5,300.25#-1e-3,+2.5,3#"
        let whole = try Self.read(text)
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            var r = PhoneTextReader()
            let pts = try r.feed(bytes[..<cut]) + r.feed(bytes[cut...]) + r.finish()
            #expect(pts == whole)
        }
    }

    @Test(arguments: [
        ("1,2,3#91,0,5", 1, "lat"),
        ("1,2,3#0,180.5,5", 1, "lon"),
        ("1,2,0", 0, "t"),
        ("1,2,253402300800", 0, "t"),
        ("1,2", 0, "t"),
        ("1,2,3#4,5,6#7,x,9", 2, "lon"),
        ("1,2,3,nan", 0, "ele"),
        ("1,2,3,", 0, "ele"),
        ("1,2,3#,2,3", 1, "lat"),
        ("1,2,3#0x10,2,3", 1, "lat"),
        ("1,2,3#1,2,inf", 1, "t"),
    ])
    func errorsNameTheFieldIndexAndKey(text: String, index: Int, key: String) {
        let e = Self.error(text)
        #expect(e?.field == "points")
        #expect(e?.index == index)
        #expect(e?.key == key)
        #expect(e?.message.hasPrefix("point \(index): ") == true)
    }

    @Test func emptyFieldsAndTooManyValuesAreErrors() {
        #expect(Self.error("1,2,3##4,5,6")?.index == 1)
        #expect(Self.error("1,2,3# #")?.index == 1)
        #expect(Self.error("1,2,3,4,5")?.message == "point 0: has 5 values; expected lat,lon,t[,ele]")
        #expect(Self.error(String(repeating: "1", count: 2000))?.index == 0)
    }

    @Test func writerHasNoTrailingHashAndRoundTrips() throws {
        let pts = [
            TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000, ele: 12),
            TrackPoint(lat: -0.00001, lon: 179.9999999, t: 1_700_000_000.123),
        ]
        var w = PhoneTextWriter()
        let text = w.chunk(pts[..<1]) + w.chunk(pts[1...]) + w.chunk([])
        #expect(text == "46.05,14.5,1700000000,12#-0.00001,179.9999999,1700000000.123")
        #expect(try Self.read(text) == pts)
    }
}
