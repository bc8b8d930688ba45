/// What can go wrong reading or writing a zip archive or a gzip stream.
///
/// The cases are split by what a caller does next: `notAZip` and `notGzip` reject the whole input,
/// `entryTooLarge` and `damaged` concern one entry (a reader can move on to the next one), and
/// `wrongSize` and `failed` are the writer's or the library's own failures. Errors thrown by a
/// ``ZipSource`` or by a ``ZipWriter``'s sink are rethrown as they are, not wrapped.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is not a zip archive, or not a complete one: no end-of-central-directory record
    /// was found (garbage, an empty file, or an archive cut short — a zip's directory is at its end).
    case notAZip(String)

    /// An entry holds, or declares, more than the reader's `maxEntryBytes`: reading stopped there
    /// and nothing more of it was inflated.
    case entryTooLarge(name: String, limit: Int64)

    /// An entry or a stream is damaged (CRC mismatch, corrupt compressed data, data cut short); the
    /// message is libarchive's or zlib's.
    case damaged(String)

    /// The input of ``Gunzip`` is not a gzip stream.
    case notGzip(String)

    /// A gzip stream inflates to more than the limit given to ``Gunzip``: it stopped there.
    case decompressedTooLarge(limit: Int64)

    /// A ``ZipWriter`` entry declared with a size received a different number of bytes.
    case wrongSize(name: String, declared: Int64, written: Int64)

    /// Anything else libarchive or zlib reports (no memory, an unsupported feature, use after a
    /// fatal error).
    case failed(String)

    public var description: String {
        switch self {
        case .notAZip(let message): "not a zip archive: \(message)"
        case .entryTooLarge(let name, let limit): "zip entry \(name) is larger than the limit of \(limit) bytes"
        case .damaged(let message): "damaged: \(message)"
        case .notGzip(let message): "not a gzip stream: \(message)"
        case .decompressedTooLarge(let limit): "gzip stream inflates to more than the limit of \(limit) bytes"
        case .wrongSize(let name, let declared, let written):
            "zip entry \(name) was declared with \(declared) bytes but \(written) were written"
        case .failed(let message): message
        }
    }
}
