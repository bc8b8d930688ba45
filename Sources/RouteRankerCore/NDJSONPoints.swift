/// Reads `application/x-ndjson` points from chunks of bytes that may split a line anywhere.
///
/// One point object per line (`\n`, optionally `\r\n`). Blank lines are ignored and are not
/// counted: a point's `index` is its position among the point lines, the same index the
/// points of a JSON array would have. A last line without a newline is read by ``finish()``.
/// Memory stays bounded: only the current partial line is kept, and a line longer than
/// ``maxLineLength`` is an error.
public struct NDJSONPointReader: Sendable {
    /// The longest line accepted, in bytes (a point needs well under 200).
    public static let maxLineLength = 64 * 1024

    private var line: [UInt8] = []
    /// Point lines read so far.
    public private(set) var pointCount = 0

    /// A reader at the start of a stream.
    public init() {}

    /// Reads the complete lines of `chunk` (with what was left over before) and returns their
    /// points in order; keeps a trailing partial line for the next call.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws -> [TrackPoint] {
        // A body's chunks are contiguous: read them as a buffer, line by line, rather than a byte at
        // a time through the generic sequence (that was most of parsing a live append).
        if let points = try chunk.withContiguousStorageIfAvailable({ try feed(buffer: $0) }) { return points }
        var points: [TrackPoint] = []
        for b in chunk {
            if b == UInt8(ascii: "\n") {
                if let p = try takeLine() { points.append(p) }
            } else {
                guard line.count < Self.maxLineLength else {
                    throw FormatError.point(pointCount, key: nil, "line is longer than \(Self.maxLineLength) bytes")
                }
                line.append(b)
            }
        }
        return points
    }

    /// `feed(_:)` of contiguous bytes: each line's bytes copied at once.
    private mutating func feed(buffer: UnsafeBufferPointer<UInt8>) throws -> [TrackPoint] {
        var points: [TrackPoint] = []
        var start = 0
        while start < buffer.count {
            var end = start
            while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
            guard line.count + (end - start) <= Self.maxLineLength else {
                throw FormatError.point(pointCount, key: nil, "line is longer than \(Self.maxLineLength) bytes")
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
            guard end < buffer.count else { break }
            if let p = try takeLine() { points.append(p) }
            start = end + 1
        }
        return points
    }

    /// Reads a last line that had no newline; call once at the end of the stream.
    public mutating func finish() throws -> [TrackPoint] {
        try takeLine().map { [$0] } ?? []
    }

    private mutating func takeLine() throws -> TrackPoint? {
        defer { line.removeAll(keepingCapacity: true) }
        guard line.contains(where: { !isJSONSpace($0) }) else { return nil }
        let index = pointCount
        pointCount += 1
        do {
            return try PointObjectScanner.scan(line).validated(index: index)
        } catch PointObjectScanner.Failure.syntax {
            throw FormatError.point(index, key: nil, "is not a valid JSON object")
        } catch PointObjectScanner.Failure.notANumber(let key) {
            throw FormatError.point(index, key: key, "\(key) must be a number")
        }
    }

    private func isJSONSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 13 || b == 10 }
}

/// Writes `application/x-ndjson` points: one JSON object per line, `ele`/`acc` only when present.
public enum NDJSONPointWriter {
    /// The lines of `points`, each ending with `\n`.
    public static func lines(_ points: some Sequence<TrackPoint>) -> String {
        var out: [UInt8] = []
        append(points, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``lines(_:)`` to `out` as UTF-8 bytes.
    public static func append(_ points: some Sequence<TrackPoint>, to out: inout [UInt8]) {
        for p in points {
            JSONPoints.append(p, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }
}
