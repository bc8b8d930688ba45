import Foundation
import Testing

@testable import RouteRankerCore

/// The fast paths of RFC 3339 output (integer date arithmetic, the fraction copied from the shortest
/// representation) against the general path they short-cut, which `WritersTests` checks on its own.
@Suite struct RFC3339FormattingTests {
    /// Times a phone or a watch records: whole seconds, milliseconds, microseconds, odd fractions.
    private static func samples() -> [Double] {
        var rng = SeededGenerator(seed: 20_261_125)
        var values: [Double] = [
            0, 0.5, 0.001, 0.0001, 1e-7, 59.999, 86_399.999_999, 86_400, 951_782_400, 1_700_000_000,
            1_700_000_000.1234567, 1_732_550_400.123, 253_402_300_799, 253_402_300_799.999, 253_402_300_800,
            253_402_300_801.5, 1e15, 1e17, -0.0, -1.25, -86_400.5, -62_135_596_800,
            1_073_741_824, 2_147_483_648, 4_294_967_296.5, 0.000_5, 1_700_000_000.000_001,
        ]
        for _ in 0..<20_000 {
            let seconds = Double(Int64.random(in: 0..<253_402_300_800, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: values.append(seconds)
            case 1: values.append(seconds + Double(Int.random(in: 0..<1000, using: &rng)) / 1000)
            case 2: values.append((seconds + Double.random(in: 0..<1, using: &rng)))
            default: values.append(Double.random(in: 0..<4e9, using: &rng))
            }
        }
        return values
    }

    @Test func formatAgreesWithTheGeneralPath() {
        for t in Self.samples() {
            #expect(RFC3339.format(t) == RFC3339.general(t), "\(t)")
            var appended = "<time>"
            RFC3339.append(t, to: &appended)
            #expect(appended == "<time>" + RFC3339.general(t), "\(t)")
            var bytes = Array("<time>".utf8)
            RFC3339.append(t, to: &bytes)
            #expect(bytes == Array(("<time>" + RFC3339.general(t)).utf8), "\(t)")
        }
    }

    @Test func formatReadsBackAsTheSameTime() {
        for t in Self.samples() where t >= 0 && t < 253_402_300_800 {
            #expect(RFC3339.parse(RFC3339.format(t)) == t, "\(t)")
        }
    }

    @Test func millisecondsAgreeWithTheGeneralPath() {
        // Beyond about 9e12 s the milliseconds do not fit an Int64; stored times are far inside.
        for t in Self.samples() where abs(t) < 1e12 {
            let ms = ((t * 1_000_000).rounded() / 1000).rounded(.down)
            let millis = Int64(ms)
            let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
            let fraction = millis - seconds * 1000
            let whole = RFC3339.general(Double(seconds))
            let padded = String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
            let expected = String(whole.dropLast(4)) + padded + "Z"
            #expect(RFC3339.formatMilliseconds(t) == expected, "\(t)")
        }
        #expect(RFC3339.formatMilliseconds(1_732_550_400.123) == "2024-11-25T16:00:00.123Z")
        #expect(RFC3339.formatMilliseconds(-0.0005) == "1969-12-31T23:59:59.999Z")
    }
}
