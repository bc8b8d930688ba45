import Foundation
import Testing
import ZipArchive

/// ZipWriter's archives, read back by ZipReader and by Python's zipfile.
@Suite struct ZipWriterTests {
    static let date = DateComponents(
        calendar: Calendar(identifier: .gregorian), timeZone: .current, year: 2024, month: 5, day: 17, hour: 12,
        minute: 30
    ).date!

    /// An archive of every kind of entry: declared and streamed sizes, deflated and stored, a
    /// directory, an empty file, a UTF-8 name, a name that climbs out (written as given).
    static func sampleArchive() throws -> [UInt8] {
        var output: [UInt8] = []
        let zip = try ZipWriter { output.append(contentsOf: $0) }
        try zip.addDirectory("routes", modified: date)
        try zip.addEntry("routes/a.gpx", modified: date, data: Fixtures.lines(3_000))
        try zip.addEntry("routes/b.gpx.gz", modified: date, data: try Fixtures.bytes("gpx.gz"), method: .store)
        try zip.beginEntry("routes/streamed.gpx", modified: date)
        let streamed = Fixtures.lines(5_000)
        for start in stride(from: 0, to: streamed.count, by: 777) {
            try zip.write(Array(streamed[start..<min(start + 777, streamed.count)]))
        }
        try zip.beginEntry("stored-streamed.bin", modified: date, method: .store)  // ends the one before
        try zip.write(Fixtures.noise(10_000, seed: 7))
        try zip.addEntry("empty.txt", modified: date, data: [UInt8]())
        try zip.addEntry("donn\u{E9}es/\u{E9}t\u{E9}.txt", modified: date, data: Array("utf8\n".utf8))
        try zip.addEntry("../raw.txt", modified: date, data: Array("raw\n".utf8))
        try zip.finish()
        #expect(zip.bytesWritten == Int64(output.count))
        return output
    }

    static let sampleNames = [
        "routes/", "routes/a.gpx", "routes/b.gpx.gz", "routes/streamed.gpx", "stored-streamed.bin", "empty.txt",
        "donn\u{E9}es/\u{E9}t\u{E9}.txt", "../raw.txt",
    ]

    static func sampleData() throws -> [[UInt8]] {
        [
            [], Fixtures.lines(3_000), try Fixtures.bytes("gpx.gz"), Fixtures.lines(5_000),
            Fixtures.noise(10_000, seed: 7), [], Array("utf8\n".utf8), Array("raw\n".utf8),
        ]
    }

    @Test func roundTripsThroughZipReader() throws {
        let reader = try ZipReader(source: DataSource(try Self.sampleArchive()), maxEntryBytes: 1 << 20)
        var entries: [ZipEntry] = []
        var data: [[UInt8]] = []
        while let entry = try reader.nextEntry() {
            entries.append(entry)
            data.append(try reader.readAll())
        }
        #expect(entries.map(\.name) == Self.sampleNames)
        #expect(entries.map(\.isDirectory) == [true] + Array(repeating: false, count: 7))
        #expect(data == (try Self.sampleData()))
        // Streamed entries too: their sizes are in the central directory.
        #expect(entries.map(\.uncompressedSize) == (try Self.sampleData()).map { Int64($0.count) })
        #expect(entries.allSatisfy { $0.modified == Self.date })
    }

    /// Python's zipfile agrees, CRCs included (`testzip()` is None); declared sizes stay classic
    /// (version 2.0 or 1.0), streamed ones use Zip64 (4.5); every file has a data descriptor.
    @Test func roundTripsThroughPythonZipfile() throws {
        let archive = try Self.sampleArchive()
        let check = try Fixtures.withTemporaryFile { path in
            try Data(archive).write(to: URL(fileURLWithPath: path))
            return try Fixtures.check(path)
        }
        #expect(check.testzip == nil)
        #expect(check.entries.map(\.name) == Self.sampleNames)
        #expect(check.entries.map(\.bytes) == (try Self.sampleData()))
        #expect(check.entries.map(\.is_dir) == [true] + Array(repeating: false, count: 7))
        #expect(check.entries.map(\.method) == [0, 8, 0, 8, 0, 8, 8, 8])
        #expect(check.entries.map(\.extract_version) == [20, 20, 10, 45, 45, 20, 20, 20])
        #expect(check.entries.allSatisfy { $0.date_time == [2024, 5, 17, 12, 30, 0] })
        #expect(check.entries.dropFirst().allSatisfy { $0.flag_bits & 0x8 != 0 })
        #expect(check.entries.map { $0.flag_bits & 0x800 != 0 } == Self.sampleNames.map { $0.utf8.count != $0.count })
        // Deflate did deflate.
        #expect(check.entries[1].compressed < check.entries[1].size / 3)
    }

    @Test func anEmptyArchiveIsAZip() throws {
        var output: [UInt8] = []
        let zip = try ZipWriter { output.append(contentsOf: $0) }
        try zip.finish()
        #expect(output.count == 22)  // an end-of-central-directory record, no padding
        #expect(try ZipReader(source: DataSource(output), maxEntryBytes: 1).nextEntry() == nil)
        let check = try Fixtures.withTemporaryFile { path in
            try Data(output).write(to: URL(fileURLWithPath: path))
            return try Fixtures.check(path)
        }
        #expect(check.entries.isEmpty && check.testzip == nil)
    }

    /// 200 entries of 100 KB: the sink gets the archive as it is written, in blocks, never more than
    /// a few blocks behind; Python reads the whole.
    @Test func streamsIntoTheSinkAsItGoes() throws {
        try Fixtures.withTemporaryFile { path in
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            var calls = 0
            var largest = 0
            var sunk = 0
            let zip = try ZipWriter(blockSize: 32 * 1024) { bytes in
                calls += 1
                largest = max(largest, bytes.count)
                sunk += bytes.count
                file.write(Data(bytes))
            }
            var behind = 0
            for index in 0..<200 {
                try zip.addEntry(
                    "\(index).bin", modified: Self.date, data: Fixtures.noise(100_000, seed: UInt64(index)))
                // Noise does not deflate: the entries so far are about (index + 1) × 100 KB.
                behind = max(behind, (index + 1) * 100_000 - sunk)
            }
            let callsBeforeFinish = calls
            try zip.finish()
            try file.close()
            #expect(callsBeforeFinish > 500)
            #expect(largest <= 32 * 1024)
            #expect(behind < 32 * 1024)
            #expect(Int64(sunk) == zip.bytesWritten)
            let check = try Fixtures.check(path)
            #expect(check.testzip == nil)
            #expect(check.entries.count == 200)
            #expect(check.entries.allSatisfy { $0.size == 100_000 })
        }
    }

    /// A declared size is kept to: more bytes, or fewer, throw — and the writer is done.
    @Test func aDeclaredSizeIsEnforced() throws {
        let more = try ZipWriter { _ in }
        try more.beginEntry("a", modified: Self.date, size: 10)
        try more.write([UInt8](repeating: 1, count: 8))
        #expect(throws: ZipError.wrongSize(name: "a", declared: 10, written: 11)) {
            try more.write([UInt8](repeating: 1, count: 3))
        }
        #expect(throws: ZipError.wrongSize(name: "a", declared: 10, written: 11)) { try more.finish() }

        let fewer = try ZipWriter { _ in }
        try fewer.beginEntry("b", modified: Self.date, size: 10)
        try fewer.write([UInt8](repeating: 1, count: 9))
        #expect(throws: ZipError.wrongSize(name: "b", declared: 10, written: 9)) { try fewer.endEntry() }
        #expect(throws: ZipError.wrongSize(name: "b", declared: 10, written: 9)) {
            try fewer.addEntry("c", modified: Self.date, data: [UInt8]())
        }
    }

    /// The sink's error comes out of the call that wrote, as it is; the writer is done after it.
    @Test func aSinkErrorIsRethrownAsItIs() throws {
        struct Closed: Error, Equatable {}
        var accepted = 0
        let zip = try ZipWriter(blockSize: 1_024) { bytes in
            if accepted > 4_096 { throw Closed() }
            accepted += bytes.count
        }
        #expect(throws: Closed()) {
            for index in 0..<100 {
                try zip.addEntry("\(index)", modified: Self.date, data: Fixtures.noise(1_000, seed: 1))
            }
        }
        #expect(throws: Closed()) { try zip.finish() }
    }

    /// A writer dropped unfinished calls its sink no more (no central directory from deinit).
    @Test func anUnfinishedWriterWritesNothingMore() throws {
        var calls = 0
        var zip: ZipWriter? = try ZipWriter(blockSize: 1_024) { _ in calls += 1 }
        try zip?.addEntry("a", modified: Self.date, data: Fixtures.noise(10_000, seed: 3))
        let before = calls
        #expect(before > 0)
        zip = nil
        #expect(calls == before)
    }

    @Test func writingWithoutAnEntryIsAnError() throws {
        let zip = try ZipWriter { _ in }
        #expect(throws: ZipError.failed("ZipWriter.write: no entry is open")) { try zip.write([1]) }
    }
}
