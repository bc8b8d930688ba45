extension RouteJSONBody {
    /// The body read by a byte scanner instead of `JSONDecoder`, or nil when it is not the plain
    /// shape the scanner takes; the caller then decodes it with `JSONDecoder`, which gives the same
    /// value or the error. A profile of bulk appends (1000 points per request) put `JSONDecoder` at
    /// over half of the server's CPU; this reads the same body several times faster.
    ///
    /// The plain shape: one object whose `name` and `activity` are strings without escapes or
    /// `null`, `recording` a boolean or `null`, `points` an array of valid point objects or `null`,
    /// `annotations` `null` or absent, each at most once; other members are skipped. Anything else —
    /// an invalid point or a number beyond a double's range included — is left to the decoder, so
    /// that every error reads as before.
    /// Call it only on bytes `StrictJSON.validate` accepted (the fuzz target `json-body` checks
    /// that it agrees with the decoder wherever it gives a value).
    public static func scanned(_ bytes: [UInt8]) -> RouteJSONBody? {
        var scanner = PointObjectScanner(bytes: bytes)
        scanner.refusesOutOfRange = true  // `JSONDecoder` refuses them
        do {
            return try scanner.routeBody()
        } catch {
            return nil
        }
    }
}

extension PointObjectScanner {
    /// Thrown when the body is valid JSON but not the plain shape `RouteJSONBody.scanned` reads.
    struct NotPlain: Error {}

    fileprivate mutating func routeBody() throws -> RouteJSONBody {
        var body = RouteJSONBody()
        var seen = Set<String>()
        skipSpace()
        try object(syntax: NotPlain() as any Error) { (s: inout PointObjectScanner) throws in
            let key = try s.string()
            try s.colon()
            switch key {
            case "name", "activity", "recording", "points", "annotations":
                // Which of two values the decoder keeps is its business.
                guard seen.insert(key).inserted else { throw NotPlain() }
                guard s.current != UInt8(ascii: "n") else { return try s.literal("null") }
                switch key {
                case "name": body.name = try s.plainString()
                case "activity": body.activity = try s.plainString()
                case "recording": body.recording = try s.boolean()
                case "points": body.points = ValidatedPoints(points: try s.points())
                default: throw NotPlain()
                }
            default:
                try s.skipValue(depth: 1)
            }
        }
        skipSpace()
        guard i == bytes.count else { throw NotPlain() }
        return body
    }

    /// A string without escapes, as valid UTF-8.
    private mutating func plainString() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            guard bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 else { throw NotPlain() }
            i += 1
        }
        guard i < bytes.count, let text = String(validating: bytes[start..<i], as: UTF8.self) else {
            throw NotPlain()
        }
        i += 1
        return text
    }

    private mutating func boolean() throws -> Bool {
        switch current {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw NotPlain()
        }
    }

    /// An array of point objects, each validated as the decoder validates it.
    private mutating func points() throws -> [TrackPoint] {
        try expect(UInt8(ascii: "["))
        var points: [TrackPoint] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            i += 1
            return points
        }
        while true {
            skipSpace()
            points.append(try pointObject().validated(index: points.count))
            skipSpace()
            if current == UInt8(ascii: ",") {
                i += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return points
        }
    }
}
