import Foundation
import RouteRankerCore
import RouteRankerModels
import Testing

@testable import RouteRankerServer

/// The directly written responses are byte for byte what `JSONEncoder.api` writes for them.
@Suite struct JSONWriterTests {
    func direct(_ value: some JSONWritable) throws -> String {
        var writer = JSONWriter()
        try value.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.api.encode(value), as: UTF8.self)
    }

    /// A route with awkward numbers, elevation on some points, a note with characters to escape.
    func route(points count: Int, state: RouteState, rng: inout some RandomNumberGenerator) -> RouteRecord {
        var acc = StatsAccumulator(activity: .run)
        var t = 1_764_000_000.125
        let points = (0..<count).map { i -> TrackPoint in
            t += Double.random(in: 0.5...4, using: &rng)
            return TrackPoint(
                lat: 52.5 + Double(i) * 1.1e-4 + Double.random(in: 0...1e-9, using: &rng), lon: -0.1 - Double(i) * 3e-5,
                t: t, ele: i % 3 == 0 ? nil : Double.random(in: -20...1e4, using: &rng))
        }
        _ = acc.ingest(points)
        return RouteRecord(
            id: "6b0672ded7786d3f2b0e8831", owner: "ada", name: "Run \"home\" / \\ back\n\t\u{1}é😀", activity: .run,
            state: state, createdAt: Date(timeIntervalSince1970: 1_764_000_000.5),
            annotations: [
                Annotation(lat: 52.5, lon: 13.25, t: nil, text: "gate\u{8}\u{c}\r\u{1f}"),
                Annotation(lat: 1e-7, lon: 1e21, t: 5, text: ""),
            ], accumulator: acc, version: 3)
    }

    @Test func summariesAreWrittenAsTheEncoderWritesThem() throws {
        var rng = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 50, 700] {
            for state in [RouteState.recording, .finished] {
                let route = route(points: count, state: state, rng: &rng)
                for summary in [
                    RouteSummary(route, sharedWith: nil), RouteSummary(route, sharedWith: ["bob", "cy"]),
                    RouteSummary(route, sharedWith: [], distanceFromM: 1234.5),
                ] {
                    #expect(try direct(summary) == encoded(summary))
                }
                let page = Page(items: [RouteSummary(route, sharedWith: [])], next: "abc", total: 7)
                #expect(try direct(page) == encoded(page))
                let appended = AppendResult(accepted: count, duplicates: 1, dropped: 2, stats: route.stats)
                #expect(try direct(appended) == encoded(appended))
                let inbox = Page(
                    items: [
                        InboxItem(
                            route: route.id, name: route.name, owner: .init(id: "ada", name: "Ada \"L\""),
                            sharedAt: Date(timeIntervalSince1970: 1_764_000_001.999), stats: route.stats)
                    ], next: nil, total: 1)
                #expect(try direct(inbox) == encoded(inbox))
            }
        }
    }

    @Test func numbersAreWrittenAsTheEncoderWritesThem() throws {
        struct Numbers: JSONWritable, Encodable {
            var values: [Double]
            func writeJSON(to w: inout JSONWriter) throws { try w.array(values) { try $0.double($1) } }
            func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
        }
        var values: [Double] = [0, -0.0, 5, 5.5, 0.1, 1e20, 1e21, 1e-7, 1e16, 2.5e-5, 123_456_789.123, .ulpOfOne]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 { values.append(Double(bitPattern: rng.next())) }
        // Numbers with few decimals, as routes hold them, take the fixed-point path.
        for _ in 0..<2000 {
            let scale = [1.0, 10, 100, 1e3, 1e5, 1e7][Int.random(in: 0..<6, using: &rng)]
            values.append(Double(Int64.random(in: -2_000_000_000...2_000_000_000, using: &rng)) / scale)
        }
        values = values.filter(\.isFinite)
        #expect(try direct(Numbers(values: values)) == encoded(Numbers(values: values)))
        // A damaged record's non-finite figure is `null`, so that a list showing it still answers.
        for value in [Double.nan, .infinity, -.infinity] {
            var writer = JSONWriter()
            try writer.double(value)
            #expect(writer.bytes == Array("null".utf8))
        }
    }

    /// Base64url without padding, as Foundation's base64 with `+/` swapped for `-_` and `=` dropped,
    /// and back.
    @Test func healthStatusIsWrittenAsTheEncoderWritesIt() throws {
        for status in ["ok", "unavailable", "a \"quoted\" / slashed\n"] {
            let value = OperationsController.Status(status: status)
            #expect(try direct(value) == encoded(value))
        }
    }

    @Test func base64URLMatchesFoundationsAlphabetSwapped() {
        var rng = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
        }
    }
}
