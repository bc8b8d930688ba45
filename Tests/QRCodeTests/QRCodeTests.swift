import Foundation
import QRCode
import TestSupport
import Testing

/// What libqrencode encodes, read back by an independent decoder (zbarimg, `QRScan`), and the
/// shape of its symbols.
@Suite struct QRCodeTests {
    @Test(arguments: [
        "https://rr.example.org/v1/track/osmand?id=0123456789abcdef01234567~AbC-_xyz",
        "owntracks:///config?inline=eyJfdHlwZSI6ImNvbmZpZ3VyYXRpb24ifQ%3D%3D",
        "12345678901234567890",
        "Zürich ✓ <&> \"quoted\"",
        String(repeating: "a long text that needs a large symbol; ", count: 20),
    ])
    func zbarReadsBackWhatWasEncoded(_ text: String) throws {
        for level in QRCode.ErrorCorrection.allCases {
            let modules = try QRCode.modules(for: text, level: level)
            #expect(try QRScan.text(of: modules) == text, "\(level)")
        }
    }

    @Test func theSymbolHasItsVersionsSizeAndThreeFinderPatterns() throws {
        for text in ["A", String(repeating: "x", count: 300)] {
            let modules = try QRCode.modules(for: text)
            let size = modules.count
            #expect(size >= 21 && (size - 21) % 4 == 0 && size <= 177)
            #expect(modules.allSatisfy { $0.count == size })
            // A finder pattern: a dark 7 × 7 ring, a light ring inside it, a dark 3 × 3 centre.
            for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
                for r in 0..<7 {
                    for c in 0..<7 {
                        let ring = max(abs(r - 3), abs(c - 3))
                        #expect(modules[top + r][left + c] == (ring != 2), "(\(top + r), \(left + c))")
                    }
                }
            }
        }
        #expect(try QRCode.modules(for: "A").count == 21)
    }

    @Test func aTextTooLongOrWithANulIsRefused() {
        // Version 40 holds 2,953 bytes at level L, 1,273 at H.
        #expect(throws: QRCodeError.tooLong) {
            try QRCode.modules(for: String(repeating: "é", count: 1500), level: .low)
        }
        #expect(throws: QRCodeError.tooLong) {
            try QRCode.modules(for: String(repeating: "x", count: 1300), level: .high)
        }
        #expect(throws: QRCodeError.invalidText) { try QRCode.modules(for: "a\u{0}b") }
        #expect(throws: Never.self) { try QRCode.modules(for: String(repeating: "x", count: 2953), level: .low) }
    }
}
