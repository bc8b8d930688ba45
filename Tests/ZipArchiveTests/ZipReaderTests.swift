import Foundation
import Testing
import ZipArchive

/// ZipReader on archives written by Python's zipfile: good ones, hostile ones, damaged ones.
@Suite struct ZipReaderTests {
    static let severalNames = [
        "readme.txt", "activities/", "activities/1.txt", "activities/2.gpx.gz", "../evil.txt",
        "donn\u{E9}es/\u{E9}t\u{E9}.txt", "empty.txt",
    ]

    /// Every entry of several.zip, in archive order, with its data — from memory and from a file.
    @Test(arguments: ["memory", "file"])
    func readsEveryEntryInOrder(from: String) throws {
        let source: any ZipSource =
            from == "file"
            ? try FileSource(path: try Fixtures.path("several.zip"))
            : DataSource(try Fixtures.bytes("several.zip"))
        let reader = try ZipReader(source: source, maxEntryBytes: 1 << 20)
        var seen: [ZipEntry] = []
        var data: [String: [UInt8]] = [:]
        while let entry = try reader.nextEntry() {
            seen.append(entry)
            data[entry.name] = try reader.readAll()
        }
        #expect(seen.map(\.name) == Self.severalNames)
        #expect(seen.map(\.index) == Array(0..<7))
        #expect(seen.map(\.isDirectory) == [false, true, false, false, false, false, false])
        #expect(seen.map(\.uncompressedSize) == [11, 0, 98_890, 4_600, 8, 5, 0])
        // 2024-05-17 12:30:00 as zipfile wrote it: DOS time, no zone (libarchive reads it as local time).
        let expected = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: .current, year: 2024, month: 5, day: 17, hour: 12,
            minute: 30
        ).date
        #expect(seen.allSatisfy { $0.modified == expected })
        #expect(data["readme.txt"] == Array("hello, zip\n".utf8))
        #expect(data["activities/"] == [])
        #expect(data["activities/1.txt"] == Fixtures.lines(10_000))
        #expect(data["../evil.txt"] == Array("outside\n".utf8))
        #expect(data["donn\u{E9}es/\u{E9}t\u{E9}.txt"] == Array("utf8\n".utf8))
        #expect(data["empty.txt"] == [])
        let gpx = try Gunzip.decompress(try #require(data["activities/2.gpx.gz"]), maxBytes: 1 << 20)
        #expect(gpx == (try Fixtures.bytes("2.gpx")))
    }

    /// Chunks are at most the size asked, and add up to the entry; nil at the end, and after.
    @Test func readsInChunks() throws {
        let reader = try Fixtures.reader("several.zip")
        while let entry = try reader.nextEntry(), entry.name != "activities/1.txt" {}
        var chunks: [[UInt8]] = []
        while let chunk = try reader.readChunk(max: 1_000) { chunks.append(chunk) }
        #expect(chunks.allSatisfy { $0.count <= 1_000 && !$0.isEmpty })
        #expect(chunks.count >= 99)
        #expect(Array(chunks.joined()) == Fixtures.lines(10_000))
        #expect(try reader.readChunk() == nil)
    }

    /// Entries may be skipped unread, or read in part: the next one is still right.
    @Test func skipsEntriesReadOrNot() throws {
        let reader = try Fixtures.reader("several.zip")
        var names: [String] = []
        while let entry = try reader.nextEntry() {
            names.append(entry.name)
            if entry.name == "activities/1.txt" { #expect(try reader.readChunk(max: 5) == Array("line ".utf8)) }
            if entry.name == "../evil.txt" { #expect(try reader.readAll() == Array("outside\n".utf8)) }
        }
        #expect(names == Self.severalNames)
        #expect(try reader.nextEntry() == nil)
    }

    /// The list before the import (for a progress total), without moving the reader.
    @Test func listsEntriesWithoutMovingTheReader() throws {
        let reader = try Fixtures.reader("several.zip")
        let first = try #require(try reader.nextEntry())
        let all = try reader.entries()
        #expect(all.map(\.name) == Self.severalNames)
        #expect(try reader.entryCount() == 7)
        #expect(first == all[0])
        #expect(try reader.readAll() == Array("hello, zip\n".utf8))
        #expect(try reader.nextEntry() == all[1])
    }

    /// Listing reads local headers, not data: a few reads of a 6 MB archive, not the whole of it.
    @Test func listingReadsNoData() throws {
        var bytes: [UInt8] = []
        let zip = try ZipWriter { bytes.append(contentsOf: $0) }
        for index in 0..<30 {
            try zip.addEntry("\(index).bin", modified: Date(), data: Fixtures.noise(200_000, seed: UInt64(index)))
        }
        try zip.finish()
        let source = CountingSource(bytes)
        let reader = try ZipReader(source: source, maxEntryBytes: 1 << 20, bufferSize: 4_096)
        #expect(try reader.entryCount() == 30)
        #expect(source.bytesRead < 30 * 4_096 * 3)
    }

    /// A name that is not UTF-8 (a legacy code page, no UTF-8 flag): reported with a replacement
    /// character, not an error; the entry reads.
    @Test func aNameInALegacyCodePageIsReportedAsWellAsItCanBe() throws {
        let reader = try Fixtures.reader("legacy-name.zip")
        #expect(try reader.nextEntry()?.name == "caf\u{FFFD}_.txt")
        #expect(try reader.readAll() == Array("legacy\n".utf8))
        #expect(try reader.nextEntry()?.name == "next.txt")
    }

    @Test func anEmptyZipHasNoEntry() throws {
        let reader = try Fixtures.reader("empty.zip")
        #expect(try reader.entryCount() == 0)
        #expect(try reader.nextEntry() == nil)
        #expect(try reader.nextEntry() == nil)
    }

    /// Garbage, nothing, and a zip cut in half: no central directory, so not a zip.
    @Test(arguments: ["garbage.bin", "zero-bytes.bin", "truncated.zip"])
    func rejectsWhatIsNotAZip(name: String) throws {
        do {
            _ = try Fixtures.reader(name)
            Issue.record("\(name) was read as a zip")
        } catch let error as ZipError {
            guard case .notAZip(let message) = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(message.contains("end-of-central-directory"))
            #expect(error.description.hasPrefix("not a zip archive"))
        }
    }

    /// 50 MB of zeros declared as such: refused at the first read, nothing inflated; the next
    /// entry reads.
    @Test func refusesAnEntryDeclaringTooMuch() throws {
        let reader = try Fixtures.reader("bomb.zip", maxEntryBytes: 1 << 20)
        let bomb = try #require(try reader.nextEntry())
        #expect(bomb.uncompressedSize == 50 << 20)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        #expect(throws: ZipError.entryTooLarge(name: "bomb.bin", limit: 1 << 20)) {
            _ = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        }
        // Again: the same error, not an end of data that would look like a complete entry.
        #expect(throws: ZipError.entryTooLarge(name: "bomb.bin", limit: 1 << 20)) { try reader.readChunk() }
        #expect(try reader.nextEntry()?.name == "after.txt")
        #expect(try reader.readAll() == Array("after\n".utf8))
    }

    /// 50 MB of zeros declared as 1,000 bytes: stopped once 1 MB is passed (at most a buffer
    /// past the limit inflated), quickly; the next entry reads.
    @Test func stopsAnEntryInflatingPastTheLimit() throws {
        let reader = try Fixtures.reader("bomb-lying.zip", maxEntryBytes: 1 << 20)
        let bomb = try #require(try reader.nextEntry())
        #expect(bomb.uncompressedSize == 1_000)
        var delivered = 0
        let started = ContinuousClock.now
        #expect(throws: ZipError.entryTooLarge(name: "bomb.bin", limit: 1 << 20)) {
            while let chunk = try reader.readChunk() { delivered += chunk.count }
        }
        #expect(delivered == 1 << 20)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(try reader.nextEntry()?.name == "after.txt")
        #expect(try reader.readAll() == Array("after\n".utf8))
    }

    /// The limit is inclusive: an entry of exactly `maxEntryBytes` reads.
    @Test func anEntryOfExactlyTheLimitReads() throws {
        let reader = try Fixtures.reader("several.zip", maxEntryBytes: 98_890)
        while let entry = try reader.nextEntry(), entry.name != "activities/1.txt" {}
        #expect(try reader.readAll() == Fixtures.lines(10_000))
        let smaller = try Fixtures.reader("several.zip", maxEntryBytes: 98_889)
        while let entry = try smaller.nextEntry(), entry.name != "activities/1.txt" {}
        #expect(throws: ZipError.entryTooLarge(name: "activities/1.txt", limit: 98_889)) { try smaller.readAll() }
    }

    /// A stored entry whose bytes no longer match its CRC: that entry fails (libarchive's warning),
    /// the next one reads.
    @Test func aBadCRCFailsThatEntryOnly() throws {
        let reader = try Fixtures.reader("bad-crc.zip")
        #expect(try reader.nextEntry()?.name == "bad.txt")
        do {
            _ = try reader.readAll()
            Issue.record("a bad CRC went unnoticed")
        } catch ZipError.damaged(let message) {
            #expect(message.contains("bad.txt") && message.contains("CRC"), "\(message)")
        }
        #expect(try reader.nextEntry()?.name == "good.txt")
        #expect(try reader.readAll() == Array("good\n".utf8))
        #expect(try reader.nextEntry() == nil)
    }

    /// Corrupt deflate data: fatal to libarchive's reader, so the reader opens the archive again
    /// and goes on with the next entry.
    @Test func corruptDataFailsThatEntryOnly() throws {
        let reader = try Fixtures.reader("bad-deflate.zip")
        #expect(try reader.nextEntry()?.name == "bad.txt")
        do {
            _ = try reader.readAll()
            Issue.record("corrupt deflate data went unnoticed")
        } catch ZipError.damaged(let message) {
            #expect(message.contains("bad.txt"), "\(message)")
        }
        let good = try #require(try reader.nextEntry())
        #expect(good.name == "good.txt" && good.index == 1)
        #expect(try reader.readAll() == Array("good\n".utf8))
        #expect(try reader.nextEntry() == nil)
    }

    /// A local header that cannot be read ends the reading: libarchive cannot step over it. The
    /// list says so too, and the error stays.
    @Test func aDamagedHeaderEndsTheReading() throws {
        let reader = try Fixtures.reader("bad-local-header.zip")
        #expect(try reader.nextEntry()?.name == "a.txt")
        #expect(try reader.readAll() == Array("a.txt".utf8))
        #expect(throws: ZipError.damaged("entry 1: Damaged Zip archive")) { try reader.nextEntry() }
        #expect(throws: ZipError.damaged("entry 1: Damaged Zip archive")) { try reader.nextEntry() }
        #expect(throws: ZipError.damaged("entry 1: Damaged Zip archive")) { try reader.entries() }
    }

    /// A source that fails: its own error comes out, on opening or on reading an entry (and the
    /// reader can go on if the source recovers).
    @Test func aSourceErrorIsRethrownAsItIs() throws {
        let bytes = try Fixtures.bytes("several.zip")
        let dead = CountingSource(bytes)
        dead.failAt = 0
        #expect(throws: CountingSource.Broken()) { try ZipReader(source: dead, maxEntryBytes: 1 << 20) }

        let flaky = CountingSource(bytes)
        let reader = try ZipReader(source: flaky, maxEntryBytes: 1 << 20, bufferSize: 1_024)
        #expect(try reader.nextEntry()?.name == "readme.txt")
        #expect(try reader.nextEntry()?.name == "activities/")
        #expect(try reader.nextEntry()?.name == "activities/1.txt")
        flaky.failAt = 2_000
        #expect(throws: CountingSource.Broken()) { try reader.readAll() }
        flaky.failAt = .max
        #expect(try reader.nextEntry()?.name == "activities/2.gpx.gz")
        #expect(try reader.readAll().count == 4_600)
    }
}
