import Foundation
import Testing
import ZipArchive

/// Gunzip on streams written by Python's gzip: whole, in pieces, several members, damaged, bombs.
@Suite struct GunzipTests {
    @Test func decompressesAWholeStream() throws {
        #expect(try Gunzip.decompress(try Fixtures.bytes("gpx.gz"), maxBytes: 1 << 20) == (try Fixtures.bytes("2.gpx")))
    }

    /// Fed a byte at a time, or in odd pieces, with small output chunks: the same bytes.
    @Test(arguments: [1, 7, 4_096])
    func decompressesFedInPieces(piece: Int) throws {
        let input = try Fixtures.bytes("gpx.gz")
        let gunzip = try Gunzip(maxBytes: 1 << 20, chunkSize: 1_000)
        var output: [UInt8] = []
        var largest = 0
        for start in stride(from: 0, to: input.count, by: piece) {
            try gunzip.feed(Array(input[start..<min(start + piece, input.count)])) {
                largest = max(largest, $0.count)
                output.append(contentsOf: $0)
            }
        }
        try gunzip.finish()
        #expect(output == (try Fixtures.bytes("2.gpx")))
        #expect(largest <= 1_000)
        #expect(gunzip.produced == Int64(output.count))
    }

    /// `cat a.gz b.gz`, as gzip -d reads it; zero padding after it is ignored.
    @Test func readsMembersOneAfterAnother() throws {
        let expected = Array("first member\nsecond member\n".utf8)
        let input = try Fixtures.bytes("two-members.gz")
        #expect(try Gunzip.decompress(input, maxBytes: 1_000) == expected)
        #expect(try Gunzip.decompress(input + [0, 0, 0, 0], maxBytes: 1_000) == expected)
        #expect(throws: ZipError.self) { try Gunzip.decompress(input + Array("junk".utf8), maxBytes: 1_000) }
    }

    /// 50 MB of zeros with a 1 MB limit: stopped after at most a chunk past the limit, quickly.
    @Test func stopsAtTheLimit() throws {
        let input = try Fixtures.bytes("zeros.gz")
        let gunzip = try Gunzip(maxBytes: 1 << 20)
        var delivered = 0
        let started = ContinuousClock.now
        #expect(throws: ZipError.decompressedTooLarge(limit: 1 << 20)) {
            try gunzip.feed(input) { delivered += $0.count }
        }
        #expect(delivered <= 1 << 20)
        #expect(gunzip.produced <= (1 << 20) + 1)
        #expect(ContinuousClock.now - started < .seconds(2))
        // Failed for good: feeding more, or finishing, throws the same.
        #expect(throws: ZipError.decompressedTooLarge(limit: 1 << 20)) { try gunzip.feed([0]) { _ in } }
        #expect(throws: ZipError.decompressedTooLarge(limit: 1 << 20)) { try gunzip.finish() }
    }

    /// The limit is inclusive.
    @Test func aStreamOfExactlyTheLimitDecompresses() throws {
        let input = try Fixtures.bytes("gpx.gz")
        let size = Int64(try Fixtures.bytes("2.gpx").count)
        #expect(try Gunzip.decompress(input, maxBytes: size).count == Int(size))
        #expect(throws: ZipError.decompressedTooLarge(limit: size - 1)) {
            try Gunzip.decompress(input, maxBytes: size - 1)
        }
    }

    /// A wrong CRC-32 in the trailer is damage (libarchive's gzip filter would not see it).
    @Test func aBadCRCIsDamage() throws {
        do {
            _ = try Gunzip.decompress(try Fixtures.bytes("bad-crc.gz"), maxBytes: 1 << 20)
            Issue.record("a bad CRC went unnoticed")
        } catch ZipError.damaged(let message) {
            #expect(message.contains("incorrect data check"), "\(message)")
        }
    }

    @Test func aTruncatedStreamIsDamage() throws {
        #expect(throws: ZipError.damaged("gzip stream cut short (unexpected end of input)")) {
            try Gunzip.decompress(try Fixtures.bytes("truncated.gz"), maxBytes: 1 << 20)
        }
    }

    @Test func rejectsWhatIsNotGzip() throws {
        #expect(throws: ZipError.notGzip("incorrect header check")) {
            try Gunzip.decompress(Array("<?xml version=\"1.0\"?><gpx/>".utf8), maxBytes: 1_000)
        }
        #expect(throws: ZipError.notGzip("empty input")) { try Gunzip.decompress([UInt8](), maxBytes: 1_000) }
        // A zip is not a gzip stream either.
        #expect(throws: ZipError.notGzip("incorrect header check")) {
            try Gunzip.decompress(try Fixtures.bytes("several.zip"), maxBytes: 1 << 20)
        }
    }
}
