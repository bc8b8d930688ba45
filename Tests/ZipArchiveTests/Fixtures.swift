import Foundation
import Testing
import ZipArchive

/// The fixtures of `fixtures.py`, written once per test run into a temporary directory (removed at
/// exit), and the script's check of a zip.
enum Fixtures {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/fixtures.py"

    /// The directory the fixtures are in, made on first use.
    private static let made: Result<String, Failure> = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ZipArchiveTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            .path
        do {
            _ = try python(["make", directory])
            atexit { try? FileManager.default.removeItem(atPath: Fixtures.directoryToRemove) }
            return .success(directory)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    private static var directoryToRemove: String { (try? made.get()) ?? "/nonexistent" }

    /// The path of fixture `name`.
    static func path(_ name: String) throws -> String {
        try made.get() + "/" + name
    }

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(name))))
    }

    /// A reader over fixture `name`, from memory.
    static func reader(_ name: String, maxEntryBytes: Int64 = 1 << 20) throws -> ZipReader {
        try ZipReader(source: DataSource(try bytes(name)), maxEntryBytes: maxEntryBytes)
    }

    /// `line 0\n` … `line {count-1}\n`, as fixtures.py writes it.
    static func lines(_ count: Int) -> [UInt8] {
        Array((0..<count).map { "line \($0)\n" }.joined().utf8)
    }

    /// What Python's zipfile makes of a zip: `testzip()` and the entries.
    struct Check: Decodable {
        struct Entry: Decodable {
            let name: String
            let size: Int64
            let compressed: Int64
            let method: Int
            let is_dir: Bool
            let date_time: [Int]
            let extract_version: Int
            let flag_bits: Int
            let data: String?

            var bytes: [UInt8]? { data.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } }
        }
        let testzip: String?
        let entries: [Entry]
    }

    /// Python's zipfile reading the zip at `path` (every entry's CRC checked by `testzip()`).
    static func check(_ path: String) throws -> Check {
        try JSONDecoder().decode(Check.self, from: try python(["check", path]))
    }

    /// Runs `python3 fixtures.py arguments…` and returns its standard output.
    static func python(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The check's output can pass a pipe's capacity: read it before waiting. Errors are short.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "fixtures.py \(arguments.joined(separator: " ")) failed: "
                    + String(decoding: errorData, as: UTF8.self))
        }
        return data
    }

    /// A temporary file path of the test's own (removed by `body`'s caller at the end).
    static func withTemporaryFile<T>(_ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ZipArchiveTests-\(UUID().uuidString).zip").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Bytes that deflate cannot shrink (xorshift), the same for the same seed.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}

/// A source over bytes that counts the reads asked of it, and can be told to fail.
final class CountingSource: ZipSource, @unchecked Sendable {
    struct Broken: Error, Equatable {}

    let inner: DataSource
    var reads = 0
    var bytesRead: Int64 = 0
    /// Reads at or past this offset throw `Broken`.
    var failAt: Int64 = .max

    init(_ bytes: [UInt8]) { inner = DataSource(bytes) }

    var size: Int64 { inner.size }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset + Int64(buffer.count) > failAt { throw Broken() }
        reads += 1
        let count = try inner.read(at: offset, into: buffer)
        bytesRead += Int64(count)
        return count
    }
}
