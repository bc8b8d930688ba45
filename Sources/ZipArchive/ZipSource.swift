import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random-access bytes a ``ZipReader`` reads an archive from.
///
/// Random access, not a stream: a zip's table of contents (the central directory) is at its end,
/// and reading it first is what makes the entry list trustworthy (a stream reader has to believe
/// each local header, which may lie or be absent for entries written with a data descriptor). An
/// archive kept in a database as chunks implements this by fetching the chunk(s) an offset falls
/// in; keeping the last chunk around pays, since the reader's reads are mostly sequential.
public protocol ZipSource {
    /// The archive's length in bytes.
    var size: Int64 { get }

    /// Copies bytes from `offset` on into `buffer`, and returns how many: up to `buffer.count`,
    /// fewer only at the end (0 at or past `size`). The reader asks for one buffer at a time.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// An archive in memory.
public struct DataSource: ZipSource, Sendable {
    /// The archive's bytes.
    public let bytes: [UInt8]

    /// An archive given as bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// An archive given as `Data`.
    public init(_ data: Data) { self.bytes = [UInt8](data) }

    public var size: Int64 { Int64(bytes.count) }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset >= 0, offset < Int64(bytes.count), !buffer.isEmpty else { return 0 }
        let start = Int(offset)
        let count = min(buffer.count, bytes.count - start)
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + start, byteCount: count)
        }
        return count
    }
}

/// An archive in a file, read with `pread` (no shared file position: the reader seeks freely).
public final class FileSource: ZipSource {
    /// Why a file could not be opened or read: the path and `errno`'s text.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let size: Int64
    private let descriptor: Int32

    /// Opens `path` for reading; its size is taken now (a file growing later is read as it was).
    public init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot stat \(path): \(message)")
        }
        descriptor = fd
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset >= 0, offset < size, !buffer.isEmpty else { return 0 }
        // pread may return less than asked (a signal, a network file system): fill what we can.
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw Failure(description: "cannot read: \(String(cString: strerror(errno)))")
            }
        }
        return done
    }
}
