import Foundation
import Testing

@testable import RouteRankerCore

/// A number no `Double` can hold (`1e999`) is a bad point whose error names the member.
@Suite struct HugeNumberTests {
    struct Body: Decodable { var points: ValidatedPoints }

    @Test(arguments: ["lat", "lon", "t", "ele", "acc"])
    func jsonNamesTheKey(key: String) throws {
        var members = ["\"lat\":52", "\"lon\":13", "\"t\":1700000010"]
        members.removeAll { $0.hasPrefix("\"\(key)\"") }
        members.append("\"\(key)\":1e999")
        let json = #"{"points":[{"lat":52,"lon":13,"t":1},{"# + members.joined(separator: ",") + "}]}"
        #expect(throws: FormatError.self) { try JSONDecoder().decode(Body.self, from: Data(json.utf8)) }
        do {
            _ = try JSONDecoder().decode(Body.self, from: Data(json.utf8))
        } catch let error as FormatError {
            #expect(error.field == "points")
            #expect(error.index == 1)
            #expect(error.key == key, "\(error)")
        }
    }

    @Test(arguments: ["lat", "lon", "t", "ele", "acc"])
    func ndjsonNamesTheKey(key: String) throws {
        var members = ["\"lat\":52", "\"lon\":13", "\"t\":1700000010"]
        members.removeAll { $0.hasPrefix("\"\(key)\"") }
        members.append("\"\(key)\":1e999")
        let lines = #"{"lat":52,"lon":13,"t":1}"# + "\n{" + members.joined(separator: ",") + "}\n"
        var reader = NDJSONPointReader()
        do {
            _ = try reader.feed(Array(lines.utf8))
            _ = try reader.finish()
            Issue.record("no error for \(key)")
        } catch let error as FormatError {
            #expect(error.index == 1)
            #expect(error.key == key, "\(error)")
        }
    }
}
