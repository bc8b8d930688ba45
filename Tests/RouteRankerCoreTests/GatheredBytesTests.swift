import Foundation
import Testing

@testable import RouteRankerCore

/// Numbers written in place (`FixedPoint.write(into:at:)`, `GatheredBytes`) against the general
/// text through `description`, and a downloaded JSON point against the same point written from
/// that general text: the in-place path must change nothing but the cost, also when the text
/// outgrows the buffer.
@Suite struct GatheredBytesTests {
    /// The longest texts there are (a subnormal written positionally, the largest doubles), short
    /// decimals, their neighbours one ulp away, and arbitrary bit patterns.
    private static func samples() -> [Double] {
        var rng = SeededGenerator(seed: 2_026_112_611)
        var values: [Double] = [
            5e-324, -5e-324, -2.225_073_858_507_201e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            0, -0.0, 0.001, 0.005, -0.005, 0.5, 7, -7.25, 52.5003, 13.400_35, 1_764_000_003, 4_503_599_627_370_495,
            .infinity, -.infinity, .nan,
        ]
        for _ in 0..<40_000 {
            let decimals = Double(Int.random(in: 0...9, using: &rng))
            let x = Double(Int64.random(in: -180_000_000_000...180_000_000_000, using: &rng)) / pow(10, decimals)
            values += [x, x.nextUp, Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))]
        }
        return values
    }

    @Test func numbersWrittenInPlaceAreTheGeneralText() {
        var mismatches: [String] = []
        for x in Self.samples() {
            var out: [UInt8] = Array("[".utf8)
            GatheredBytes.append(to: &out) { text in
                text.put(UInt8(ascii: "<"))
                text.put(number: x)
                text.put(">")
            }
            let expected = "[<" + (x.isFinite ? DecimalNumbers.general(x) : "null") + ">"
            if String(decoding: out, as: UTF8.self) != expected, mismatches.count < 10 {
                mismatches.append("\(x.bitPattern): \(String(decoding: out, as: UTF8.self)) against \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func textLongerThanTheBufferSpillsInOrder() {
        // Runs of 40 numbers (up to 327 bytes each) between literals, many times the buffer's size.
        let numbers = Self.samples()
        for start in stride(from: 0, to: numbers.count, by: 997) {
            let run = numbers[start..<min(start + 40, numbers.count)]
            var out: [UInt8] = []
            GatheredBytes.append(to: &out) { text in
                for x in run {
                    text.put(number: x)
                    text.put(",")
                }
            }
            let expected = run.map { ($0.isFinite ? DecimalNumbers.general($0) : "null") + "," }.joined()
            #expect(String(decoding: out, as: UTF8.self) == expected)
        }
    }

    @Test func fixedPointWritesExactlyItsTextWhereItIsAsked() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            for x in Self.samples() {
                guard let fixed = DecimalNumbers.FixedPoint(x) else { continue }
                buffer.initialize(repeating: UInt8(ascii: "#"))
                let end = fixed.write(into: buffer, at: 5)
                let written = String(decoding: UnsafeBufferPointer(rebasing: buffer[5..<end]), as: UTF8.self)
                #expect(written == fixed.text)
                // Nothing before or after it is touched.
                #expect(buffer[..<5].allSatisfy { $0 == UInt8(ascii: "#") })
                #expect(buffer[end...].allSatisfy { $0 == UInt8(ascii: "#") })
            }
        }
    }

    @Test func aJSONPointIsItsFieldsGeneralText() {
        let numbers = Self.samples().filter(\.isFinite)
        var rng = SeededGenerator(seed: 99)
        for i in 0..<20_000 {
            func any() -> Double { numbers[Int.random(in: 0..<numbers.count, using: &rng)] }
            let ele: Double? = i % 3 == 0 ? nil : any()
            let acc: Double? = i % 4 == 0 ? nil : any()
            // The extremes on every field at once: the longest point a download can hold.
            let p =
                i == 0
                ? TrackPoint(lat: 5e-324, lon: -5e-324, t: -.greatestFiniteMagnitude, ele: -5e-324, acc: 5e-324)
                : TrackPoint(lat: any(), lon: any(), t: any(), ele: ele, acc: acc)
            var expected = "{\"lat\":\(DecimalNumbers.general(p.lat)),\"lon\":\(DecimalNumbers.general(p.lon))"
            expected += ",\"t\":\(DecimalNumbers.general(p.t))"
            if let ele = p.ele { expected += ",\"ele\":\(DecimalNumbers.general(ele))" }
            if let acc = p.acc { expected += ",\"acc\":\(DecimalNumbers.general(acc))" }
            expected += "}"
            var out: [UInt8] = []
            JSONPoints.append(p, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == expected)
        }
    }
}
