/// Why a request body or file could not be read: API.md's `400 invalid_request` details.
///
/// `field` is `"points"` or `"annotations"` for a bad element (with its 0-based `index` as sent:
/// array position, n-th NDJSON point line, n-th `#` field, n-th GPX point), or `"body"` when
/// the document itself is malformed. `key` names the offending member (`lat`, `time`, …).
/// Binary formats (FIT) also give the byte `offset` the problem was found at.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request field the problem is in: `points`, `annotations` or `body`.
    public var field: String
    /// The 0-based index of the bad element, when there is one.
    public var index: Int?
    /// The offending key of that element, when one is to blame.
    public var key: String?
    /// The 1-based line in the source document (GPX), when known.
    public var line: Int?
    /// The 0-based byte offset in a binary body (FIT), when known: API.md's `"offset"`.
    public var offset: Int?
    /// For people, e.g. `point 3: lat must be between -90 and 90`.
    public var message: String

    /// An error with every detail given.
    public init(
        field: String, index: Int?, key: String?, line: Int? = nil, offset: Int? = nil, message: String
    ) {
        self.field = field
        self.index = index
        self.key = key
        self.line = line
        self.offset = offset
        self.message = message
    }

    /// A bad point (`field` `points`); the message is prefixed with `point <index>:`.
    public static func point(_ index: Int, key: String?, _ problem: String, line: Int? = nil) -> FormatError {
        let at = line.map { " (line \($0))" } ?? ""
        return FormatError(
            field: "points", index: index, key: key, line: line, message: "point \(index)\(at): \(problem)")
    }

    /// A bad annotation (`field` `annotations`).
    public static func annotation(_ index: Int, key: String?, _ problem: String, line: Int? = nil) -> FormatError {
        let at = line.map { " (line \($0))" } ?? ""
        return FormatError(
            field: "annotations", index: index, key: key, line: line, message: "annotation \(index)\(at): \(problem)")
    }

    /// A malformed document (`field` `body`).
    public static func body(_ problem: String, line: Int? = nil) -> FormatError {
        FormatError(field: "body", index: nil, key: nil, line: line, message: problem)
    }

    /// A damaged binary body (`field` `body`), with the byte where the damage was found.
    public static func body(_ problem: String, offset: Int) -> FormatError {
        FormatError(field: "body", index: nil, key: nil, offset: offset, message: "\(problem) (byte \(offset))")
    }

    public var description: String { message }
}

/// The name the server code uses for a bad point; the same type as ``FormatError``.
public typealias PointError = FormatError
