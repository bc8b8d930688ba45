import Foundation
import Testing

@testable import RouteRankerCore

/// NDJSON points read from arbitrary chunks.
@Suite struct NDJSONTests {
    static let text = """
        {"lat":46.05,"lon":14.5,"t":1700000000}

        {"lat": 46.06, "lon": 14.51, "t": 1700000001.5, "ele": 300.25, "acc": 4, "speed": true}\r
          {"t":1700000002,"lon":-1e-3,"lat":0,"ele":null,"acc":null}
        """

    static func read(_ bytes: some Collection<UInt8>) throws -> [TrackPoint] {
        var r = NDJSONPointReader()
        return try r.feed(bytes) + r.finish()
    }

    static func error(_ text: String) -> FormatError? {
        do {
            _ = try read(Array(text.utf8))
            return nil
        } catch { return error as? FormatError }
    }

    @Test func readsLinesIgnoringBlankOnesAndUnknownFields() throws {
        let pts = try Self.read(Array(Self.text.utf8))
        #expect(
            pts == [
                TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000),
                TrackPoint(lat: 46.06, lon: 14.51, t: 1_700_000_001.5, ele: 300.25, acc: 4),
                TrackPoint(lat: 0, lon: -0.001, t: 1_700_000_002),
            ])
    }

    @Test func splittingAtEveryBytePositionGivesTheSamePoints() throws {
        let bytes = Array((Self.text + "\n").utf8)
        let whole = try Self.read(bytes)
        for cut in 0...bytes.count {
            for cut2 in [cut, min(bytes.count, cut + 1), min(bytes.count, cut + 7)] {
                var r = NDJSONPointReader()
                let pts = try r.feed(bytes[..<cut]) + r.feed(bytes[cut..<cut2]) + r.feed(bytes[cut2...]) + r.finish()
                #expect(pts == whole)
            }
        }
        // Byte by byte.
        var r = NDJSONPointReader()
        var pts: [TrackPoint] = []
        for b in bytes { pts += try r.feed(CollectionOfOne(b)) }
        #expect(pts + (try r.finish()) == whole)
    }

    @Test(arguments: [
        ("{\"lat\":1,\"lon\":2,\"t\":3}\n{\"lat\":true,\"lon\":2,\"t\":3}", 1, "lat"),
        ("{\"lat\":1,\"lon\":2,\"t\":3}\n\n{\"lat\":1,\"lon\":\"2\",\"t\":3}", 1, "lon"),
        ("{\"lat\":1,\"lon\":2}", 0, "t"),
        ("{\"lat\":1,\"lon\":2,\"t\":-5}", 0, "t"),
        ("{\"lat\":1,\"lon\":2,\"t\":5,\"acc\":-1}", 0, "acc"),
        ("{\"lat\":-90.5,\"lon\":2,\"t\":5}", 0, "lat"),
        ("{\"lat\":null,\"lon\":2,\"t\":5}", 0, "lat"),
    ])
    func errorsNameTheLineAndKey(text: String, index: Int, key: String) {
        let e = Self.error(text)
        #expect(e?.field == "points" && e?.index == index && e?.key == key, "\(String(describing: e))")
    }

    @Test func malformedLinesAreErrorsWithoutAKey() {
        for bad in ["{\"lat\":1,", "[1,2,3]", "42", "{\"lat\":1,\"lon\":2,\"t\":3} x", "{\"lat\":01}"] {
            let e = Self.error("{\"lat\":1,\"lon\":2,\"t\":3}\n" + bad)
            #expect(e?.index == 1 && e?.key == nil, "\(bad): \(String(describing: e))")
        }
    }

    @Test func aLineCannotGrowWithoutBound() {
        var r = NDJSONPointReader()
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 10_000)
        #expect(throws: FormatError.self) {
            for _ in 0..<10 { _ = try r.feed(chunk) }
        }
    }

    /// Contiguous chunks (a request body's) are read line by line, other sequences byte by byte:
    /// the same points, and the same bound on a line, to the byte.
    @Test func contiguousAndByteByByteReadingAgree() throws {
        let bytes = Array((Self.text + "\n\n" + Self.text).utf8)
        var contiguous = NDJSONPointReader()
        var generic = NDJSONPointReader()
        var a: [TrackPoint] = []
        var b: [TrackPoint] = []
        for start in stride(from: 0, to: bytes.count, by: 13) {
            let piece = bytes[start..<min(start + 13, bytes.count)]
            a += try contiguous.feed(piece)
            b += try generic.feed(piece.lazy.map { $0 })
        }
        a += try contiguous.finish()
        b += try generic.finish()
        #expect(a == b)
        #expect(a.count == 6)
        for length in [NDJSONPointReader.maxLineLength, NDJSONPointReader.maxLineLength + 1] {
            let long = [UInt8](repeating: UInt8(ascii: " "), count: length)
            var r1 = NDJSONPointReader()
            var r2 = NDJSONPointReader()
            let contiguousFailed = (try? r1.feed(long[..<100]) + r1.feed(long[100...])) == nil
            let genericFailed = (try? r2.feed(long.lazy.map { $0 })) == nil
            #expect(contiguousFailed == (length > NDJSONPointReader.maxLineLength))
            #expect(genericFailed == contiguousFailed)
        }
    }

    @Test func writerRoundTrips() throws {
        let pts = [
            TrackPoint(lat: 46.05, lon: 14.5, t: 1_700_000_000, ele: 12, acc: 3.5),
            TrackPoint(lat: -0.00001, lon: 180, t: 0.001),
        ]
        let text = NDJSONPointWriter.lines(pts)
        #expect(
            text == """
                {"lat":46.05,"lon":14.5,"t":1700000000,"ele":12,"acc":3.5}
                {"lat":-0.00001,"lon":180,"t":0.001}

                """)
        #expect(try Self.read(Array(text.utf8)) == pts)
    }

    @Test func outOfRangeNumbersAreRangeErrors() {
        let e = Self.error("{\"lat\":1e999,\"lon\":2,\"t\":3}")
        #expect(e?.key == "lat" && e?.message == "point 0: lat must be between -90 and 90")
    }

    /// The line scanner and JSONDecoder (used for JSON bodies) agree on what is a valid object
    /// and on the values read.
    @Test(arguments: [
        #"{"lat":1,"lon":2,"t":3}"#, #" { "t" : 3 , "lon" : -2.5e-3 , "lat" : 0.0 } "#, #"{}"#,
        #"{"lat":1,"x":{"a":[1,2,{"b":null}],"c":"\"\u00e9\n"},"y":[],"z":{},"w":true,"v":false}"#,
        #"{"l\u0061t":5,"lon":1,"t":2}"#, #"{"lat":1,"lat":2}"#, #"{"lat":-0}"#, #"{"lat":1E+2}"#,
        #"{"lat":.5}"#, #"{"lat":+1}"#, #"{"lat":1.}"#, #"{"lat":1e}"#, #"{"lat":00}"#,
        #"{'lat':1}"#, #"{"lat":1"#, #"{"lat" 1}"#, #"{"x":tru}"#, #"{"x":"a"#,
        #"{"x":"\u12"}"#, #"{"lat":NaN}"#, #"{"x":1}{"y":2}"#, #"[]"#, #"null"#,
        #"{"lat":true}"#, #"{"lat":"1"}"#, #"{"lat":[1]}"#, #"{"lat":{}}"#, #"{"lat":null,"lon":null}"#,
    ])
    func scannerAgreesWithJSONDecoder(json: String) {
        let decoded = try? JSONDecoder().decode(RawPoint.self, from: Data(json.utf8))
        let scanned = try? PointObjectScanner.scan(Array(json.utf8))
        #expect(
            decoded.map { [$0.lat, $0.lon, $0.t, $0.ele, $0.acc] }
                == scanned.map { [$0.lat, $0.lon, $0.t, $0.ele, $0.acc] })
    }

    /// Where Foundation's JSONDecoder is lenient, the scanner keeps to RFC 8259.
    @Test(arguments: [#"{"lat":1,}"#, #"{"x":[1,]}"#, #"{"x":"\q"}"#, "{\"x\":\"\u{1}\"}"])
    func scannerIsStrictWhereJSONDecoderIsLenient(json: String) {
        #expect((try? PointObjectScanner.scan(Array(json.utf8))) == nil)
    }
}
