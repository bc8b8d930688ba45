import Foundation

/// A JSON array of points, decoded with API.md's validation: `lat`, `lon`, `t` required and in
/// range, `ele` finite, `acc` finite and ≥ 0, `null` meaning absent, booleans and strings not
/// numbers, unknown members ignored. Embed it in a request type (`let points: ValidatedPoints?`);
/// a bad element throws ``FormatError`` (field `points`, its index and key) out of `JSONDecoder`.
public struct ValidatedPoints: Sendable, Hashable, Decodable {
    /// The points in the order sent (sort with ``TrackPoint/sortedByTime(_:)`` before ingest).
    public var points: [TrackPoint]

    /// Points already validated (as `RouteJSONBody.scanned` reads them).
    init(points: [TrackPoint]) { self.points = points }

    /// Decodes and validates the array.
    public init(from decoder: any Decoder) throws {
        guard var c = try? decoder.unkeyedContainer() else {
            throw FormatError(field: "points", index: nil, key: nil, message: "points must be an array")
        }
        points = []
        while !c.isAtEnd {
            let index = c.currentIndex
            let raw: RawPoint
            do { raw = try c.decode(RawPoint.self) } catch {
                let (key, problem) = JSONPoints.problem(error)
                throw FormatError.point(index, key: key, problem)
            }
            points.append(try raw.validated(index: index))
        }
    }
}

/// A JSON array of annotations (`{"lat","lon","t"?,"text"}`), validated like ``ValidatedPoints``.
public struct ValidatedAnnotations: Sendable, Hashable, Decodable {
    /// The annotations in the order sent.
    public var annotations: [Annotation]

    /// Decodes and validates the array.
    public init(from decoder: any Decoder) throws {
        guard var c = try? decoder.unkeyedContainer() else {
            throw FormatError(field: "annotations", index: nil, key: nil, message: "annotations must be an array")
        }
        annotations = []
        while !c.isAtEnd {
            let index = c.currentIndex
            let raw: RawAnnotation
            do { raw = try c.decode(RawAnnotation.self) } catch {
                let (key, problem) = JSONPoints.problem(error)
                throw FormatError.annotation(index, key: key, problem)
            }
            annotations.append(
                try PointValidation.annotation(lat: raw.lat, lon: raw.lon, t: raw.t, text: raw.text, index: index))
        }
    }

    private struct RawAnnotation: Decodable {
        var lat: Double?
        var lon: Double?
        var t: Double?
        var text: String?
    }
}

/// One point as sent, before validation: every member optional so that a missing one is
/// reported by ``PointValidation`` with its key.
struct RawPoint: Decodable {
    var lat: Double?
    var lon: Double?
    var t: Double?
    var ele: Double?
    var acc: Double?

    /// A point with no member set (the NDJSON scanner fills it in).
    init() {}

    /// Decodes member by member so that any failure names its key — including Foundation's
    /// non-`DecodingError` failure for numbers no `Double` can hold (`1e999`).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func number(_ key: Key) throws -> Double? {
            do {
                return try container.decodeIfPresent(Double.self, forKey: key)
            } catch let error as DecodingError {
                throw error
            } catch {
                throw MemberError(key: key.stringValue, problem: "\(key.stringValue) must be a finite number")
            }
        }
        lat = try number(.lat)
        lon = try number(.lon)
        t = try number(.t)
        ele = try number(.ele)
        acc = try number(.acc)
    }

    private enum Key: String, CodingKey { case lat, lon, t, ele, acc }

    func validated(index: Int) throws -> TrackPoint {
        try PointValidation.point(lat: lat, lon: lon, t: t, ele: ele, acc: acc, index: index)
    }
}

/// JSON points in and out.
public enum JSONPoints {
    /// Decodes a bare JSON array of points (`[{"lat":…},…]`) with validation.
    public static func decode(_ data: Data) throws -> [TrackPoint] {
        do {
            return try JSONDecoder().decode(ValidatedPoints.self, from: data).points
        } catch let e as FormatError {
            throw e
        } catch {
            throw FormatError.body("the body is not valid JSON")
        }
    }

    /// One point as a JSON object; `ele` and `acc` only when present.
    public static func object(_ p: TrackPoint) -> String {
        var s = ""
        append(p, to: &s)
        return s
    }

    /// Appends ``object(_:)`` of `p` to `out`.
    public static func append(_ p: TrackPoint, to out: inout String) {
        var bytes: [UInt8] = []
        append(p, to: &bytes)
        out.append(String(decoding: bytes, as: UTF8.self))
    }

    /// Appends ``object(_:)`` of `p` to `out` as UTF-8 bytes: the downloads' hot path, where
    /// growing a `String` piece by piece cost more than the numbers' own conversion. The point is
    /// gathered on the stack and appended in one piece.
    public static func append(_ p: TrackPoint, to out: inout [UInt8]) {
        GatheredBytes.append(to: &out) { text in
            text.put("{\"lat\":")
            text.put(number: p.lat)
            text.put(",\"lon\":")
            text.put(number: p.lon)
            text.put(",\"t\":")
            text.put(number: p.t)
            if let ele = p.ele {
                text.put(",\"ele\":")
                text.put(number: ele)
            }
            if let acc = p.acc {
                text.put(",\"acc\":")
                text.put(number: acc)
            }
            text.put(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal, quotes included (escapes `"`, `\` and control characters).
    public static func string(_ text: String) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}", "\u{2029}", "\u{0}"..."\u{1F}":
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// What a `DecodingError` inside one element says: the offending key and the problem.
    static func problem(_ error: any Error) -> (key: String?, problem: String) {
        if let member = error as? MemberError { return (member.key, member.problem) }
        guard let e = error as? DecodingError else { return (nil, "is not valid") }
        let context: DecodingError.Context
        switch e {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default: return (nil, "is not valid")
        }
        // The path ends with [index, key] (whatever encloses the array comes before); a path
        // ending at the index means the element itself is wrong.
        let path = context.codingPath
        let afterIndex = path.lastIndex(where: { $0.intValue != nil }).map { path[($0 + 1)...] } ?? path[...]
        guard let key = afterIndex.first?.stringValue else {
            return (nil, "must be an object")
        }
        return (key, "\(key) must be \(key == "text" ? "a string" : "a number")")
    }
}

/// A member of a point that failed to decode for a reason `DecodingError` does not describe.
struct MemberError: Error {
    var key: String
    var problem: String
}

extension [UInt8] {
    /// Appends the UTF-8 bytes of a literal in one copy.
    mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
