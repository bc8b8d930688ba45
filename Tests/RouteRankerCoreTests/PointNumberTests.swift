import Foundation
import Testing

@testable import RouteRankerCore

/// The point scanner's numbers read to the same bits as the C library's correctly rounded
/// conversion (`Double(String)`), on its fast path and off it.
@Suite struct PointNumberTests {
    private func scanned(_ number: String) throws -> Double? {
        try PointObjectScanner.scan(Array(#"{"lat":\#(number)}"#.utf8)).lat
    }

    @Test(arguments: [
        "0", "-0", "1", "-1", "0.1", "52.520008", "-13.404954", "1763800000.123", "1e22", "1e23", "-1e-22",
        "9007199254740992", "9007199254740993", "123456789012345678901", "1234567890123456789",
        "0.000000000000000000001234", "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
        "1e400", "-1e400", "0e999999", "1.00000000000000000000000001", "10000000000000000000000.0",
        "3.141592653589793238462643383279", "0.30000000000000004", "1E+2", "1e-0",
    ])
    func fixedNumbers(number: String) throws {
        let value = try #require(try scanned(number))
        #expect(value.bitPattern == Double(number)!.bitPattern, "\(number)")
    }

    @Test func randomNumbersReadAsStrtodReadsThem() throws {
        var rng = SeededGenerator(seed: 20_261_125)
        for _ in 0..<50_000 {
            var text = rng.next() % 2 == 0 ? "-" : ""
            let integerDigits = Int(rng.next() % 12)
            if integerDigits == 0 {
                text += "0"
            } else {
                text += String(1 + rng.next() % 9)
                for _ in 1..<integerDigits { text += String(rng.next() % 10) }
            }
            if rng.next() % 3 != 0 {
                text += "."
                for _ in 0..<(1 + rng.next() % 20) { text += String(rng.next() % 10) }
            }
            if rng.next() % 4 == 0 { text += "e" + String(Int(rng.next() % 60) - 30) }
            let value = try #require(try scanned(text))
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
