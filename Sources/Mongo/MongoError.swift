/// What can go wrong talking to MongoDB, in the few kinds callers act on differently.
/// Built from libmongoc's errors in one place: `MongoError+bson_error.swift`.
public enum MongoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A unique index refused the write (server codes 11000, 11001, 12582); for idempotent writes this
    /// means "already stored".
    case duplicateKey(message: String)
    /// The namespace (collection or database) does not exist, where the operation needs it to.
    case notFound
    /// The database cannot be reached or cannot accept the operation right now: server selection
    /// failed, the network failed or timed out, the primary stepped down or is shutting down, or the
    /// majority write concern could not be confirmed. Retrying later may succeed.
    case unavailable(message: String)
    /// Refused without trying: `waiting` operations already wait for a free client. Retrying
    /// later may succeed.
    case overloaded(waiting: Int)
    /// Anything else: a server error `code` (with `domain` nil for errors raised by this wrapper, e.g.
    /// a document that cannot be encoded) or a libmongoc `domain`/`code` pair.
    case other(code: Int, domain: Int?, message: String)

    public var description: String {
        switch self {
        case .duplicateKey(let message): "duplicate key: \(message)"
        case .notFound: "namespace not found"
        case .unavailable(let message): "database unavailable: \(message)"
        case .overloaded(let waiting): "too many operations waiting for a database connection (\(waiting))"
        case .other(let code, let domain, let message):
            "MongoDB error \(code)\(domain.map { " (domain \($0))" } ?? ""): \(message)"
        }
    }
}
