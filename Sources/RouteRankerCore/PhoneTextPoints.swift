/// Reads the original phone format, `lat,lon,t[,ele]#lat,lon,t[,ele]#…`, from chunks of bytes.
///
/// Whitespace (space, tab, CR, LF) around separators is ignored, and so is a trailing `#`
/// (an empty last field). Any other empty field is an error. A point's `index` is the 0-based
/// number of its `#` field. Only the current partial field is kept, at most ``maxFieldLength``.
public struct PhoneTextReader: Sendable {
    /// The longest field accepted, in bytes.
    public static let maxFieldLength = 1024
    private static let keys = ["lat", "lon", "t", "ele"]

    private var field: [UInt8] = []
    /// `#` fields completed so far.
    public private(set) var fieldCount = 0

    /// A reader at the start of a body.
    public init() {}

    /// Reads the complete fields of `chunk` and returns their points; keeps the partial last one.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws -> [TrackPoint] {
        var points: [TrackPoint] = []
        for b in chunk {
            if b == UInt8(ascii: "#") {
                points.append(try takeField())
            } else {
                guard field.count < Self.maxFieldLength else {
                    throw FormatError.point(fieldCount, key: nil, "field is longer than \(Self.maxFieldLength) bytes")
                }
                field.append(b)
            }
        }
        return points
    }

    /// Reads the last field; an empty one (after a trailing `#`, or an empty body) is ignored.
    public mutating func finish() throws -> [TrackPoint] {
        guard field.contains(where: { !Self.isSpace($0) }) else { return [] }
        return [try takeField()]
    }

    private mutating func takeField() throws -> TrackPoint {
        defer {
            field.removeAll(keepingCapacity: true)
            fieldCount += 1
        }
        let index = fieldCount
        let values = field.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard values.count <= 4 else {
            throw FormatError.point(index, key: nil, "has \(values.count) values; expected lat,lon,t[,ele]")
        }
        var numbers: [Double?] = [nil, nil, nil, nil]
        for (i, v) in values.enumerated() {
            let text = String(decoding: trim(v), as: UTF8.self)
            if text.isEmpty {
                if values.count == 1 { throw FormatError.point(index, key: nil, "is empty") }
                throw FormatError.point(index, key: Self.keys[i], "\(Self.keys[i]) is missing")
            }
            guard let x = DecimalNumbers.parse(text) else {
                throw FormatError.point(index, key: Self.keys[i], "\(Self.keys[i]) must be a number")
            }
            numbers[i] = x
        }
        return try PointValidation.point(
            lat: numbers[0], lon: numbers[1], t: numbers[2], ele: numbers[3], acc: nil, index: index)
    }

    private func trim(_ v: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var v = v
        while let f = v.first, Self.isSpace(f) { v.removeFirst() }
        while let l = v.last, Self.isSpace(l) { v.removeLast() }
        return v
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
}

/// Writes the phone format: fields joined by `#`, no trailing `#`.
public struct PhoneTextWriter: Sendable {
    private var wroteAny = false

    /// A writer at the start of a body.
    public init() {}

    /// The text of `points`, with the `#` before each one after the very first point written.
    public mutating func chunk(_ points: some Sequence<TrackPoint>) -> String {
        var out = ""
        for p in points {
            if wroteAny { out += "#" }
            wroteAny = true
            out += "\(DecimalNumbers.format(p.lat)),\(DecimalNumbers.format(p.lon)),\(DecimalNumbers.format(p.t))"
            if let ele = p.ele { out += ",\(DecimalNumbers.format(ele))" }
        }
        return out
    }
}
