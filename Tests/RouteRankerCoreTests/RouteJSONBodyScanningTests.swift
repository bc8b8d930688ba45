import Foundation
import Testing

@testable import RouteRankerCore

/// `RouteJSONBody.scanned` reads the plain shape of a route body as `JSONDecoder` does, and leaves
/// every other body (and so every error) to the decoder.
@Suite struct RouteJSONBodyScanningTests {
    private func decoded(_ json: String) -> RouteJSONBody? {
        try? JSONDecoder().decode(RouteJSONBody.self, from: Data(json.utf8))
    }

    private func scanned(_ json: String) -> RouteJSONBody? {
        RouteJSONBody.scanned(Array(json.utf8))
    }

    @Test(arguments: [
        #"{}"#,
        #" { "points" : [ ] } "#,
        #"{"points":null,"name":null,"activity":null,"recording":null,"annotations":null}"#,
        #"{"name":"Morgenlauf über die Brücke","activity":"run","recording":true}"#,
        #"{"points":[{"lat":52.5,"lon":13.4,"t":1700000000},{"lat":-0.5e1,"lon":1E-3,"t":1.7e9,"ele":null,"acc":0}]}"#,
        // Unknown members of the body and of a point are skipped, nested or not.
        #"{"x":{"a":[1,{"b":"\u00e9\n"}]},"points":[{"t":1,"lat":1,"lon":2,"note":[true,false,null]}],"y":-0}"#,
        // A repeated member of a point: the first value wins, as with the decoder.
        #"{"points":[{"lat":1,"lon":2,"t":3,"lat":4}]}"#,
    ])
    func plainBodiesReadAsTheDecoderReadsThem(json: String) throws {
        let value = try #require(scanned(json))
        #expect(value == decoded(json))
    }

    @Test func aLongBodyReadsPointByPoint() throws {
        let points = (0..<1000).map { i in
            #"{"lat":\#(52.5 + Double(i) * 1e-5),"lon":13.4,"t":\#(1_700_000_000 + i),"ele":\#(30.25 + Double(i) / 7)}"#
        }
        let json = #"{"name":"Loop","points":[\#(points.joined(separator: ","))]}"#
        let value = try #require(scanned(json))
        #expect(value.points?.points.count == 1000)
        #expect(value == decoded(json))
    }

    @Test(arguments: [
        // Left to the decoder: what it reads differently or reports as an error.
        #"{"annotations":[{"lat":1,"lon":2,"text":"x"}]}"#,
        #"{"name":"caf\u00e9"}"#,
        #"{"name":"a","name":"b"}"#,
        #"{"name":5}"#,
        #"{"recording":"yes"}"#,
        #"{"points":{}}"#,
        #"{"points":[1]}"#,
        #"{"points":[{"lat":91,"lon":0,"t":0}]}"#,
        #"{"points":[{"lat":1,"lon":0}]}"#,
        #"{"points":[{"lat":"1","lon":0,"t":0}]}"#,
        #"{"points":[{"lat":1e999,"lon":0,"t":0}]}"#,
        #"{"points":[{"lat":1e-400,"lon":0,"t":0}]}"#,
        #"[]"#,
        #"{} {}"#,
    ])
    func otherBodiesAreLeftToTheDecoder(json: String) {
        #expect(scanned(json) == nil)
    }
}
