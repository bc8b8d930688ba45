import CArchive
import Foundation

/// One entry of a zip archive, as its headers describe it.
public struct ZipEntry: Sendable, Equatable {
    /// The entry's position in archive order, from 0.
    public let index: Int

    /// The path as the archive spells it (UTF-8 when the archive says so), NOT sanitised: it may be
    /// absolute or contain `..`. What a name may mean is the caller's decision.
    public let name: String

    /// Whether the entry is a directory (its name ends with `/`, or its attributes say so).
    public let isDirectory: Bool

    /// The uncompressed size the archive declares, if it declares one. A declaration, not a
    /// promise: ``ZipReader`` enforces its limit on the bytes it actually inflates.
    public let uncompressedSize: Int64?

    /// The modification time the archive records, if any.
    public let modified: Date?
}

/// Reads a zip archive from a random-access ``ZipSource``, entry by entry, each entry's data in
/// chunks, with a hard limit on the bytes inflated per entry.
///
/// Built on libarchive's *seekable* zip reader: it finds the end-of-central-directory record, reads
/// the central directory (the archive's table of contents, kept in memory: about 100 bytes an
/// entry), then visits the entries in the order of their data in the file, seeking to each local
/// header. Trusting the central directory rather than the local headers is what makes data
/// descriptors, sizes and skipping reliable, and skipping an entry costs a seek, never an inflate.
///
/// ```swift
/// let reader = try ZipReader(source: FileSource(path: path), maxEntryBytes: 64 << 20)
/// while let entry = try reader.nextEntry() {
///     guard !entry.isDirectory else { continue }
///     do {
///         while let chunk = try reader.readChunk() { consume(chunk) }
///     } catch let error as ZipError {
///         markFailed(entry, error)  // entryTooLarge, damaged: the next entry can still be read
///     }
/// }
/// ```
///
/// Errors are split by where they come from: one thrown by a read of an entry's data concerns
/// that entry only, and ``nextEntry()`` goes on with the next one (after a failure libarchive
/// considers fatal — corrupt deflate data, data cut short, a source error — by opening the archive
/// again and skipping to the next entry, which re-reads the central directory and seeks over the
/// entries before). One thrown by ``nextEntry()`` (a damaged local header or central directory) ends
/// the reading: libarchive cannot step over a header it cannot read.
///
/// Not thread-safe: one reader is used by one thread at a time (it may move between threads).
public final class ZipReader {
    /// The most bytes an entry may inflate to: reading more throws ``ZipError/entryTooLarge(name:limit:)``.
    public let maxEntryBytes: Int64

    private let source: any ZipSource
    private let bufferSize: Int
    /// nil for an archive of no entry (see `isEmptyArchive`).
    private var handle: ReadHandle?
    /// Entries handed out by `nextEntry` so far; after a reopen, as many headers are skipped.
    private var returned = 0
    private var current: ZipEntry?
    private var entryRead: Int64 = 0
    private var entryEnded = false
    private var entryFailure: (any Error)?
    /// The libarchive reader is in its fatal state (it refuses every call): open a new one.
    private var mustReopen = false
    private var archiveFailure: (any Error)?
    private var ended = false

    /// Opens the archive in `source`: fails with ``ZipError/notAZip(_:)`` if no end-of-central-directory
    /// record is found (garbage, an empty file, a truncated archive).
    ///
    /// - Parameters:
    ///   - maxEntryBytes: the most bytes an entry may inflate to (zip bombs: 50 MB of zeros deflate
    ///     to 50 KB). An entry that declares more fails at its first read, without inflating.
    ///   - bufferSize: the size of the reads asked of `source`.
    public init(source: some ZipSource, maxEntryBytes: Int64, bufferSize: Int = 64 * 1024) throws {
        precondition(maxEntryBytes >= 0 && bufferSize > 0)
        self.source = source
        self.maxEntryBytes = maxEntryBytes
        self.bufferSize = bufferSize
        handle = try Self.isEmptyArchive(source) ? nil : ReadHandle(source: source, bufferSize: bufferSize)
        ended = handle == nil
    }

    /// Whether the archive is an end-of-central-directory record and nothing before it: the zip of
    /// no entry. libarchive 3.6's seekable reader misses an EOCD at offset 0 (its backwards search
    /// stops before index 0) and would call the empty zip "not a zip".
    private static func isEmptyArchive(_ source: any ZipSource) throws -> Bool {
        guard source.size >= 22 else { return false }
        var record = [UInt8](repeating: 0, count: 22)
        let count = try record.withUnsafeMutableBytes { try source.read(at: 0, into: $0) }
        func uint16(_ at: Int) -> Int { Int(record[at]) | Int(record[at + 1]) << 8 }
        // The signature, no entry on this disk nor in all, and the comment running to the end.
        return count == 22 && record[0..<4] == [0x50, 0x4B, 0x05, 0x06] && uint16(8) == 0 && uint16(10) == 0
            && 22 + Int64(uint16(20)) == source.size
    }

    /// Moves to the next entry, skipping what remains of the current one (a seek), and returns it;
    /// nil after the last one.
    ///
    /// Throws ``ZipError/damaged(_:)`` when a header cannot be read: then the reader is finished
    /// and every later call throws again.
    public func nextEntry() throws -> ZipEntry? {
        if let archiveFailure { throw archiveFailure }
        if ended { return nil }
        current = nil
        entryRead = 0
        entryEnded = false
        entryFailure = nil
        do {
            var handle = self.handle!
            if mustReopen {
                handle = try ReadHandle(source: source, bufferSize: bufferSize)
                self.handle = handle
                mustReopen = false
                for index in 0..<returned {
                    guard try handle.nextHeader(index: index) != nil else {
                        throw ZipError.damaged("entry \(index) is gone on resuming after a damaged entry")
                    }
                }
            }
            guard let entry = try handle.nextHeader(index: returned) else {
                ended = true
                return nil
            }
            returned += 1
            current = entry
            return entry
        } catch {
            archiveFailure = error
            throw error
        }
    }

    /// Copies the current entry's next bytes into `buffer` and returns how many; 0 at the end of
    /// the entry (or when there is no current entry).
    ///
    /// Throws ``ZipError/entryTooLarge(name:limit:)`` as soon as the entry goes past `maxEntryBytes`
    /// (libarchive has inflated at most its 256 KiB buffer past it), or before inflating anything
    /// if it declares more;
    /// ``ZipError/damaged(_:)`` for a CRC mismatch, corrupt or missing data. The CRC is checked when
    /// the end is reached: a caller that stops early has not verified the data it read. Once an
    /// entry failed, reading it throws the same error again; ``nextEntry()`` moves on.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let entry = current, let handle, !buffer.isEmpty else { return 0 }
        if let entryFailure { throw entryFailure }
        if entryEnded { return 0 }
        if let declared = entry.uncompressedSize, declared > maxEntryBytes {
            return try fail(ZipError.entryTooLarge(name: entry.name, limit: maxEntryBytes))
        }
        // Ask for one byte more than the limit allows, no more: libarchive inflates what is asked
        // (plus at most its 256 KiB buffer), so going past the limit is seen without inflating on.
        let want = Int(min(Int64(buffer.count), maxEntryBytes - entryRead + 1))
        let count = archive_read_data(handle.archive, buffer.baseAddress, want)
        if count < 0 {
            // ARCHIVE_FATAL (corrupt deflate data, a truncated entry, a source error) leaves
            // libarchive's reader unusable; ARCHIVE_WARN/FAILED (a CRC or size mismatch, an
            // unsupported method) do not.
            if count == ARCHIVE_FATAL || handle.sourceError != nil { mustReopen = true }
            return try fail(handle.sourceError ?? ZipError.damaged("\(entry.name): \(handle.message)"))
        }
        if count == 0 {
            entryEnded = true
            return 0
        }
        entryRead += Int64(count)
        if entryRead > maxEntryBytes {
            return try fail(ZipError.entryTooLarge(name: entry.name, limit: maxEntryBytes))
        }
        return count
    }

    /// The current entry's next bytes, at most `max` of them; nil at the end of the entry. Same
    /// errors as ``read(into:)``.
    public func readChunk(max: Int = 64 * 1024) throws -> [UInt8]? {
        precondition(max > 0)
        var count = 0
        let chunk = try [UInt8](unsafeUninitializedCapacity: max) { buffer, initialized in
            count = try read(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
        return count == 0 ? nil : chunk
    }

    /// The rest of the current entry's data (at most `maxEntryBytes`, by construction). Same errors
    /// as ``read(into:)``.
    public func readAll() throws -> [UInt8] {
        var data: [UInt8] = []
        if let size = current?.uncompressedSize, size <= maxEntryBytes { data.reserveCapacity(Int(size)) }
        while let chunk = try readChunk() { data += chunk }
        return data
    }

    /// Every entry of the archive, in the order ``nextEntry()`` returns them, read with a reader of
    /// its own (this one's position does not move): one pass over the local headers, seeking from
    /// one to the next, reading no data. For a progress total before the import starts.
    public func entries() throws -> [ZipEntry] {
        if handle == nil { return [] }
        let pass = try ReadHandle(source: source, bufferSize: bufferSize)
        var entries: [ZipEntry] = []
        while let entry = try pass.nextHeader(index: entries.count) { entries.append(entry) }
        return entries
    }

    /// How many entries ``nextEntry()`` will return (see ``entries()``, which this counts).
    public func entryCount() throws -> Int { try entries().count }

    private func fail(_ error: any Error) throws -> Int {
        entryFailure = error
        throw error
    }
}

/// One libarchive reader over a source, and what its callbacks need: the source, the position of
/// the next read, the buffer libarchive reads from, and the source's error if it threw one.
private final class ReadHandle {
    let archive: OpaquePointer
    let source: any ZipSource
    let buffer: UnsafeMutableRawBufferPointer
    var position: Int64 = 0
    var sourceError: (any Error)?

    /// libarchive's message for its last error.
    var message: String { archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error" }

    init(source: any ZipSource, bufferSize: Int) throws {
        guard let archive = archive_read_new() else { throw ZipError.failed("libarchive: out of memory") }
        self.archive = archive
        self.source = source
        buffer = .allocate(byteCount: bufferSize, alignment: 16)
        // Only the seekable zip reader: no streaming fallback (it would believe local headers), no
        // other format, no compression filter around the zip.
        archive_read_support_format_zip_seekable(archive)
        archive_read_set_callback_data(archive, Unmanaged.passUnretained(self).toOpaque())
        archive_read_set_read_callback(archive) { _, context, out in
            ReadHandle.from(context).fill(out!)
        }
        archive_read_set_seek_callback(archive) { _, context, offset, whence in
            let handle = ReadHandle.from(context)
            let base: Int64
            switch whence {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = handle.position
            case SEEK_END: base = handle.source.size
            default: return Int64(ARCHIVE_FATAL)
            }
            guard base + offset >= 0 else { return Int64(ARCHIVE_FATAL) }
            handle.position = base + offset
            return handle.position
        }
        archive_read_set_skip_callback(archive) { _, context, request in
            let handle = ReadHandle.from(context)
            let skipped = max(0, min(request, handle.source.size - handle.position))
            handle.position += skipped
            return skipped
        }
        guard archive_read_open1(archive) == ARCHIVE_OK else {
            if let sourceError { throw sourceError }
            throw ZipError.notAZip(
                "no end-of-central-directory record (garbage, an empty file, or an archive cut short) — \(message)")
        }
    }

    deinit {
        archive_read_free(archive)
        buffer.deallocate()
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> ReadHandle {
        Unmanaged<ReadHandle>.fromOpaque(context!).takeUnretainedValue()
    }

    /// libarchive's read callback: the next buffer of the source from `position` on.
    func fill(_ out: UnsafeMutablePointer<UnsafeRawPointer?>) -> la_ssize_t {
        let want = Int(min(Int64(buffer.count), max(0, source.size - position)))
        guard want > 0 else { return 0 }
        do {
            let count = try source.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
            guard (0...want).contains(count) else {
                sourceError = ZipError.failed("the source returned \(count) bytes when asked for \(want)")
                return la_ssize_t(ARCHIVE_FATAL)
            }
            position += Int64(count)
            out.pointee = UnsafeRawPointer(buffer.baseAddress)
            return la_ssize_t(count)
        } catch {
            sourceError = error
            return la_ssize_t(ARCHIVE_FATAL)
        }
    }

    /// The next header, as the entry of position `index`; nil at the end.
    ///
    /// In a UTF-8 locale: libarchive converts a name flagged UTF-8 to the locale's character set,
    /// which on a server is "C" (ASCII), where it fails for any other letter. The locale is the
    /// thread's own (uselocale), set for the call only.
    func nextHeader(index: Int) throws -> ZipEntry? {
        try withUTF8Locale { try readNextHeader(index: index) }
    }

    private func readNextHeader(index: Int) throws -> ZipEntry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        if status == ARCHIVE_EOF { return nil }
        // ARCHIVE_WARN: a usable header with a remark (a name not in the locale's character set).
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            if let sourceError { throw sourceError }
            throw ZipError.damaged("entry \(index): \(message)")
        }
        guard let name = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry) else {
            throw ZipError.damaged("entry \(index): a name that cannot be decoded — \(message)")
        }
        let fileType = archive_entry_filetype(entry) & 0o170000
        return ZipEntry(
            index: index,
            name: String(cString: name),
            isDirectory: fileType == 0o040000,
            uncompressedSize: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil,
            modified: archive_entry_mtime_is_set(entry) != 0
                ? Date(
                    timeIntervalSince1970: TimeInterval(archive_entry_mtime(entry))
                        + TimeInterval(archive_entry_mtime_nsec(entry)) / 1e9)
                : nil)
    }
}
