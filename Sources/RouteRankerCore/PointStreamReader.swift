/// The streaming point formats behind one reader: NDJSON (one point object per line) and the
/// phone's text format (`lat,lon,t[,ele]#…`). The server feeds it a request body chunk by chunk
/// and `routeranker stats` a whole file, so both parse with the same code.
public struct PointStreamReader: Sendable {
    /// The formats a stream can be in.
    public enum Format: Sendable, Hashable {
        case ndjson, text
    }

    private enum Reader: Sendable {
        case ndjson(NDJSONPointReader)
        case text(PhoneTextReader)
    }

    private var reader: Reader

    /// A reader at the start of a stream in `format`.
    public init(_ format: Format) {
        switch format {
        case .ndjson: reader = .ndjson(NDJSONPointReader())
        case .text: reader = .text(PhoneTextReader())
        }
    }

    /// The points completed by `chunk`; a point split across chunks comes with the chunk that ends it.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws -> [TrackPoint] {
        switch reader {
        case .ndjson(var inner):
            defer { reader = .ndjson(inner) }
            return try inner.feed(chunk)
        case .text(var inner):
            defer { reader = .text(inner) }
            return try inner.feed(chunk)
        }
    }

    /// The last point, if the stream did not end with a separator.
    public mutating func finish() throws -> [TrackPoint] {
        switch reader {
        case .ndjson(var inner):
            defer { reader = .ndjson(inner) }
            return try inner.finish()
        case .text(var inner):
            defer { reader = .text(inner) }
            return try inner.finish()
        }
    }

    /// Reads a whole stream held in memory.
    public static func readAll(_ bytes: some Sequence<UInt8>, format: Format) throws -> [TrackPoint] {
        var reader = PointStreamReader(format)
        return try reader.feed(bytes) + reader.finish()
    }
}
