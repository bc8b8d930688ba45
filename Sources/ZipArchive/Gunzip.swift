import CArchive
import Foundation

/// Decompresses a gzip stream (RFC 1952) fed in chunks, with a hard limit on the bytes it inflates:
/// for the `.gpx.gz` and `.fit.gz` files inside an archive, fed with a ``ZipReader``'s chunks.
///
/// ```swift
/// let gunzip = try Gunzip(maxBytes: 64 << 20)
/// while let chunk = try reader.readChunk() {
///     try gunzip.feed(chunk) { output in parser.consume(output) }
/// }
/// try gunzip.finish()
/// ```
///
/// zlib's `inflate` (window bits 16 + 15: gzip framing only), not libarchive's gzip filter, because
/// (1) zlib checks each member's trailer — CRC-32 and length — where libarchive 3.6's filter skips
/// it ("XXX TODO: Verify the length and CRC"), so a damaged file would read as good; (2) zlib is
/// *fed* (push), so the caller's chunks go in as they come, where libarchive pulls from a read
/// callback; (3) libarchive's raw format passes a non-gzip input through unchanged unless its
/// filter is checked afterwards, where zlib rejects it at the header. zlib is no new dependency:
/// libarchive links it.
///
/// Members written one after another (`cat a.gz b.gz`, which `gzip -d` reads as one file) are read
/// as one stream; zero bytes after the last member (tape padding) are ignored, anything else there
/// is a damaged member.
///
/// Not thread-safe: one instance is used by one thread at a time.
public final class Gunzip {
    /// The most bytes the stream may inflate to: more throws ``ZipError/decompressedTooLarge(limit:)``.
    public let maxBytes: Int64
    /// Bytes produced so far.
    public private(set) var produced: Int64 = 0

    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    /// The current member ended (and nothing of a next one was fed yet).
    private var memberEnded = false
    /// Some input was fed: an empty input is not a gzip stream.
    private var fedAny = false
    /// Members read to their end: a bad header after the first is damage, not a foreign format.
    private var members = 0
    private var failure: (any Error)?

    /// A decompressor inflating at most `maxBytes`, handing its output out in chunks of at most
    /// `chunkSize` bytes.
    public init(maxBytes: Int64, chunkSize: Int = 64 * 1024) throws {
        precondition(maxBytes >= 0 && chunkSize > 0 && chunkSize <= Int(UInt32.max))
        self.maxBytes = maxBytes
        // zlib keeps a pointer to its z_stream in its state and checks it: the struct must not move.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: chunkSize, alignment: 16)
        let status = inflateInit2_(stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        // On failure deinit frees both (inflateEnd refuses a stream that was not set up).
        guard status == Z_OK else { throw ZipError.failed("zlib: inflateInit2 failed (\(status))") }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates `input`, calling `body` with each chunk of output as it is produced (the buffer is
    /// valid during the call only). Throws ``ZipError/notGzip(_:)`` if the stream does not begin as
    /// gzip, ``ZipError/damaged(_:)`` for corrupt data or a wrong CRC-32 or length,
    /// ``ZipError/decompressedTooLarge(limit:)`` past `maxBytes` (inflating stops one byte past
    /// it); once it threw, it throws the same error again.
    public func feed(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let failure { throw failure }
        guard !input.isEmpty else { return }
        fedAny = true
        do {
            try inflate(input, body)
        } catch {
            failure = error
            throw error
        }
    }

    /// Inflates `input`, an array: as the other `feed`.
    public func feed(_ input: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try input.withUnsafeBytes { try feed($0, body) }
    }

    /// Checks that the stream is complete: throws ``ZipError/damaged(_:)`` if it stopped inside a
    /// member (a truncated file), ``ZipError/notGzip(_:)`` if nothing was fed.
    public func finish() throws {
        if let failure { throw failure }
        guard fedAny else { throw ZipError.notGzip("empty input") }
        guard memberEnded else { throw ZipError.damaged("gzip stream cut short (unexpected end of input)") }
    }

    /// Decompresses a whole gzip stream held in memory, at most `maxBytes` of output.
    public static func decompress(_ input: some ContiguousBytes, maxBytes: Int64) throws -> [UInt8] {
        let gunzip = try Gunzip(maxBytes: maxBytes)
        var result: [UInt8] = []
        try input.withUnsafeBytes { bytes in
            try gunzip.feed(bytes) { result.append(contentsOf: $0) }
        }
        try gunzip.finish()
        return result
    }

    private func inflate(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var rest = input
        while true {
            if memberEnded {
                // Between members: zero padding is skipped; anything else must be a new member.
                rest = UnsafeRawBufferPointer(rebasing: rest.drop { $0 == 0 })
                if rest.isEmpty { return }
                guard CArchive.inflateReset(stream) == Z_OK else { throw ZipError.failed("zlib: inflateReset failed") }
                memberEnded = false
            }
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: rest.baseAddress!.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(rest.count)
            var status: Int32
            repeat {
                // One byte more than the limit allows: going past it is seen without inflating on.
                let room = Int(min(Int64(output.count), maxBytes - produced + 1))
                stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(room)
                status = CArchive.inflate(stream, Z_NO_FLUSH)
                let count = room - Int(stream.pointee.avail_out)
                if count > 0 {
                    produced += Int64(count)
                    if produced > maxBytes { throw ZipError.decompressedTooLarge(limit: maxBytes) }
                    try body(UnsafeRawBufferPointer(rebasing: output[..<count]))
                }
                switch status {
                case Z_OK, Z_STREAM_END: break
                case Z_BUF_ERROR: status = Z_OK  // no progress possible: all input consumed, output flushed
                case Z_DATA_ERROR where members == 0 && produced == 0 && stream.pointee.total_in <= 10:
                    throw ZipError.notGzip(zlibMessage(status))
                case Z_DATA_ERROR, Z_NEED_DICT: throw ZipError.damaged("gzip: \(zlibMessage(status))")
                default: throw ZipError.failed("zlib: \(zlibMessage(status))")
                }
                // Output filled up: inflate may hold more without needing input; ask again.
            } while status == Z_OK && stream.pointee.avail_out == 0
            let consumed = rest.count - Int(stream.pointee.avail_in)
            rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
            if status == Z_STREAM_END {
                memberEnded = true
                members += 1
                continue
            }
            if rest.isEmpty { return }
        }
    }

    private func zlibMessage(_ status: Int32) -> String {
        stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
    }
}
