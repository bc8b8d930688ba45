import CArchive
import Foundation

/// Writes a zip archive to a sink, entry by entry, as it goes: for a download streamed into an
/// HTTP response without holding the archive.
///
/// ```swift
/// let zip = try ZipWriter { bytes in buffer.append(contentsOf: bytes) }
/// for route in routes {
///     try zip.addEntry("routes/\(route.id).gpx", modified: route.date, data: route.gpx)
///     try await response.write(buffer)  // drain what the sink got, then go on
///     buffer.removeAll(keepingCapacity: true)
/// }
/// try zip.finish()
/// ```
///
/// Built on libarchive's zip writer, which never seeks back: each entry is a local header, the
/// (deflated) data, then a data descriptor with the CRC-32 and sizes, and ``finish()`` writes the
/// central directory. What is held meanwhile is bounded: one output block (`blockSize`), the
/// deflate state and window (a few hundred KiB), and the central directory (about 100 bytes an entry).
///
/// Entry sizes: an entry may be written without knowing its size (`size: nil`), but then libarchive
/// gives it Zip64 fields (version needed 4.5, 24-byte descriptor) in case it passes 4 GiB. Every
/// current unzip reads those, yet a declared size keeps the entry in the classic format, readable
/// by anything. So a caller that can (say, one route's GPX built in memory) passes the size; one
/// streaming an entry of unknown length leaves it out. A declared size is enforced: writing more
/// or fewer bytes throws ``ZipError/wrongSize(name:declared:written:)``.
///
/// Names are written as UTF-8 (with the zip flag saying so when not ASCII), as given: the writer
/// does not check them.
///
/// Any error (the sink's, libarchive's, a wrong size) ends the writer: every later call throws it
/// again, and the output is not a valid zip. The sink is called synchronously, from within the
/// call that produced the bytes. Not thread-safe: one thread at a time.
public final class ZipWriter {
    /// How an entry's data is stored.
    public enum Method: Sendable {
        /// Deflate (zip method 8): for text such as GPX.
        case deflate
        /// Stored as is (method 0): for data already compressed (`.gz`, images).
        case store
    }

    /// Bytes handed to the sink so far.
    public private(set) var bytesWritten: Int64 = 0

    private let archive: OpaquePointer
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var sinkError: (any Error)?
    private var failure: (any Error)?
    private var entry: (name: String, declared: Int64?, written: Int64)?
    private var finished = false

    /// A writer handing its output to `sink` in blocks of `blockSize` bytes (the last one shorter):
    /// the sink sees nothing until a block is full, then a block at a time. An error the sink throws
    /// is rethrown by the call that was writing.
    public init(blockSize: Int = 64 * 1024, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        precondition(blockSize > 0 && blockSize <= Int(Int32.max))
        guard let archive = archive_write_new() else { throw ZipError.failed("libarchive: out of memory") }
        self.archive = archive
        self.sink = sink
        try check(archive_write_set_format_zip(archive))
        // Names are given as UTF-8 and stored as UTF-8 (flagged so), whatever the process's locale
        // (C, on a server): libarchive takes the locale's character set when the option is set.
        try withUTF8Locale { try check(archive_write_set_options(archive, "zip:hdrcharset=UTF-8")) }
        try check(archive_write_set_bytes_per_block(archive, Int32(blockSize)))
        // No padding of the last block (a tape habit): the archive ends where the zip ends.
        try check(archive_write_set_bytes_in_last_block(archive, 1))
        let opened = archive_write_open(
            archive, Unmanaged.passUnretained(self).toOpaque(), nil,
            { _, context, buffer, length in
                let writer = Unmanaged<ZipWriter>.fromOpaque(context!).takeUnretainedValue()
                do {
                    try writer.sink(UnsafeRawBufferPointer(start: buffer, count: length))
                    writer.bytesWritten += Int64(length)
                    return la_ssize_t(length)
                } catch {
                    writer.sinkError = error
                    return la_ssize_t(ARCHIVE_FATAL)
                }
            }, nil)
        try check(opened)
    }

    deinit {
        // Not finished: tell libarchive not to write the rest (free would close, and write the
        // central directory to a sink nobody expects to be called any more).
        if !finished { archive_write_fail(archive) }
        archive_write_free(archive)
    }

    /// Starts an entry named `name` (ending the current one, if any); its data follows with
    /// `write(_:)` and ends with ``endEntry()``, the next entry or
    /// ``finish()``. `size` nil: see the type's note on sizes.
    public func beginEntry(_ name: String, modified: Date, size: Int64? = nil, method: Method = .deflate) throws {
        try endEntry()
        try perform {
            try check(
                method == .deflate
                    ? archive_write_zip_set_compression_deflate(archive)
                    : archive_write_zip_set_compression_store(archive))
            try writeHeader(name, modified: modified, type: 0o100000, permissions: 0o644, size: size)
            entry = (name, size, 0)
        }
    }

    /// Appends `bytes` to the current entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try perform {
            guard let current = entry else { throw ZipError.failed("ZipWriter.write: no entry is open") }
            let written = current.written + Int64(bytes.count)
            if let declared = current.declared, written > declared {
                throw ZipError.wrongSize(name: current.name, declared: declared, written: written)
            }
            guard !bytes.isEmpty else { return }
            let count = archive_write_data(archive, bytes.baseAddress, bytes.count)
            guard count == bytes.count else { throw error(status: Int32(truncatingIfNeeded: min(count, 0))) }
            entry?.written = written
        }
    }

    /// Appends `bytes` to the current entry.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the current entry (its data descriptor is written); nothing if no entry is open.
    public func endEntry() throws {
        guard let current = entry else {
            if let failure { throw failure }
            return
        }
        try perform {
            entry = nil
            if let declared = current.declared, declared != current.written {
                throw ZipError.wrongSize(name: current.name, declared: declared, written: current.written)
            }
            try check(archive_write_finish_entry(archive))
        }
    }

    /// Writes a whole entry held in memory (its size declared: the classic format).
    public func addEntry(_ name: String, modified: Date, data: some ContiguousBytes, method: Method = .deflate) throws {
        try data.withUnsafeBytes { bytes in
            try beginEntry(name, modified: modified, size: Int64(bytes.count), method: method)
            try write(bytes)
            try endEntry()
        }
    }

    /// Writes a directory entry (`/` is appended to `name` if missing).
    public func addDirectory(_ name: String, modified: Date) throws {
        try endEntry()
        try perform {
            try writeHeader(name, modified: modified, type: 0o040000, permissions: 0o755, size: 0)
            try check(archive_write_finish_entry(archive))
        }
    }

    /// Ends the current entry and writes the central directory, handing the sink the last bytes.
    /// The archive is complete only after this returned.
    public func finish() throws {
        try endEntry()
        if finished { return }
        try perform {
            try check(archive_write_close(archive))
            finished = true
        }
    }

    /// Runs `body`, and makes the writer failed if it throws (the output is then unusable anyway).
    private func perform(_ body: () throws -> Void) throws {
        if let failure { throw failure }
        if finished { throw ZipError.failed("ZipWriter: already finished") }
        do {
            try body()
        } catch {
            failure = error
            throw error
        }
    }

    private func writeHeader(_ name: String, modified: Date, type: UInt32, permissions: UInt32, size: Int64?) throws {
        guard let header = archive_entry_new() else { throw ZipError.failed("libarchive: out of memory") }
        defer { archive_entry_free(header) }
        archive_entry_set_pathname_utf8(header, name)
        archive_entry_set_filetype(header, type)
        archive_entry_set_perm(header, permissions)
        let seconds = modified.timeIntervalSince1970.rounded(.down)
        let nanoseconds = ((modified.timeIntervalSince1970 - seconds) * 1e9).rounded(.down)
        archive_entry_set_mtime(header, time_t(exactly: seconds) ?? 0, Int(exactly: nanoseconds) ?? 0)
        if let size { archive_entry_set_size(header, size) } else { archive_entry_unset_size(header) }
        // ARCHIVE_WARN too: a name that could not be converted would be written mangled.
        try withUTF8Locale { try check(archive_write_header(archive, header), allowWarning: false) }
    }

    private func check(_ status: Int32, allowWarning: Bool = true) throws {
        if status == ARCHIVE_OK || (allowWarning && status == ARCHIVE_WARN) { return }
        throw error(status: status)
    }

    private func error(status: Int32) -> any Error {
        if let sinkError { return sinkError }
        let message = archive_error_string(archive).map { String(cString: $0) } ?? "error \(status)"
        return ZipError.failed("libarchive: \(message)")
    }
}
