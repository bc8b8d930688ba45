import Foundation
import Testing

@testable import RouteRankerCore

/// The fixed-point path of number output (`DecimalNumbers.FixedPoint`) against the general path
/// through `description` that it short-cuts, which `WritersTests` checks on its own: the same text
/// for every number, and the text reads back as the same double. (About half a million numbers: the
/// suite runs in parallel, and live-following tests beside it have a 1 s delivery bound.)
@Suite struct DecimalNumbersFixedPointTests {
    /// What GPS data holds (coordinates with a few to many decimals, times, elevations, speeds),
    /// numbers one ulp away from those, arbitrary doubles, and the edges of the path's range.
    private static func samples() -> [Double] {
        var rng = SeededGenerator(seed: 20_261_126)
        var values: [Double] = [
            0.001, 0.0011, 0.000_999_999, 1e15, 1e15 - 1, 4_503_599_627_370_495, 4_503_599_627_370_497,
            0.1, 0.2, 0.3, 0.7, 1.1, 2.675, 1.005, 9.995, 0.125, 3, 5, 1e-3, 123_456_789.012_345_6,
            52.504_899_999_999_999, 13.404_954, -33.868_82, 151.209_29, -0.0015, 1_764_000_003.25,
        ]
        for _ in 0..<100_000 {
            let decimals = Int.random(in: 0...9, using: &rng)
            let scale = pow(10, Double(decimals))
            let whole = Double(Int64.random(in: -180_000_000_000...180_000_000_000, using: &rng))
            let x = (whole / scale).truncatingRemainder(dividingBy: 1e9)
            values += [x, x.nextUp, x.nextDown]
        }
        for _ in 0..<60_000 {
            values.append(Double.random(in: -1e6...1e6, using: &rng))
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng)))
            let exponent = Double(Int.random(in: -4...16, using: &rng))
            values.append(Double.random(in: 1..<10, using: &rng) * pow(10, exponent))
        }
        return values
    }

    @Test func fixedPointTextIsTheGeneralText() {
        var fast = 0
        var mismatches: [String] = []
        for x in Self.samples() where x.isFinite {
            let expected = DecimalNumbers.general(x)
            guard let fixed = DecimalNumbers.FixedPoint(x) else { continue }
            fast += 1
            if fixed.text != expected, mismatches.count < 10 {
                mismatches.append("\(x.bitPattern): \(fixed.text) against \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The path must carry nearly all of the 100,000 short decimals, or it saves nothing (their
        // neighbours one ulp away need 16 or 17 digits and mostly go the general way).
        #expect(fast > 98_000, "only \(fast) numbers took the fixed-point path")
    }

    @Test func formatAndAppendAgreeAndReadBack() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<50_000 {
            let x = (Double(Int.random(in: -90_000_000...90_000_000, using: &rng)) / 1e6)
            var out = "["
            DecimalNumbers.append(x, to: &out)
            #expect(out == "[" + DecimalNumbers.format(x))
            #expect(DecimalNumbers.parse(DecimalNumbers.format(x)) == x)
        }
    }

    @Test func edgesLeftToTheGeneralPath() {
        for x in [0.0, -0.0, 0.000_5, 1e15, 2, 0.5, 1024, 1e300, 5e-324] {
            #expect(DecimalNumbers.FixedPoint(x) == nil, "\(x)")
        }
        #expect(DecimalNumbers.format(-0.0) == DecimalNumbers.general(-0.0))
        #expect(DecimalNumbers.format(0.0005) == "0.0005")
    }
}
