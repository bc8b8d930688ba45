import CLibMongoC

// The one place where libmongoc's errors become `MongoError`. The pool uses error API version 2, so
// errors reported by the server arrive with domain MONGOC_ERROR_SERVER (or MONGOC_ERROR_WRITE_CONCERN)
// and the server's own code, while client-side failures keep libmongoc's domains.

extension MongoError {
    /// Server codes meaning "duplicate key": 11000 (modern), 11001 (legacy update), 12582 (legacy).
    static let duplicateKeyCodes: Set<Int> = [11000, 11001, 12582]

    /// Server codes meaning the server cannot serve us now but may soon: network trouble, shutdown,
    /// elections, and write concern timeouts (a majority could not be confirmed in time).
    static let unavailableCodes: Set<Int> = [
        6, 7, 64, 89, 91, 134, 189, 262, 9001, 10058, 10107, 11600, 11602, 13388, 13435, 13436,
    ]

    /// Whether this is a failed server selection: no server answered at all (libmongoc's
    /// `MONGOC_ERROR_SERVER_SELECTION` errors, whose messages all begin so), as opposed to a server
    /// that answered with an error.
    var isNoServer: Bool {
        guard case .unavailable(let message) = self else { return false }
        return message.hasPrefix("No suitable servers")
    }

    /// Server code for a missing namespace.
    static let namespaceNotFoundCode = 26

    /// Maps a libmongoc error, with the reply that came with it (write errors live there for bulk
    /// writes, as do write concern errors).
    init(_ error: bson_error_t, reply: BSONDocument? = nil) {
        let domain = Int(error.domain)
        let code = Int(error.code)
        let message = Self.message(of: error)

        switch UInt32(domain) {
        case MONGOC_ERROR_SERVER_SELECTION.rawValue, MONGOC_ERROR_STREAM.rawValue:
            self = .unavailable(message: message)
            return
        default:
            break
        }
        let serverCodes = [code] + Self.replyCodes(reply)
        if serverCodes.contains(where: Self.duplicateKeyCodes.contains) || message.contains("E11000") {
            self = .duplicateKey(message: message)
        } else if serverCodes.contains(where: Self.unavailableCodes.contains) {
            self = .unavailable(message: message)
        } else if code == Self.namespaceNotFoundCode
            && (domain == Int(MONGOC_ERROR_SERVER.rawValue) || domain == Int(MONGOC_ERROR_QUERY.rawValue))
        {
            self = .notFound
        } else {
            self = .other(code: code, domain: domain, message: message)
        }
    }

    /// Maps one entry of a reply's `writeErrors` (`code`, `errmsg`): what the server said of one
    /// statement of a write with several.
    init(writeError: BSONDocument) {
        let code = writeError.int("code") ?? 0
        let message = writeError.string("errmsg") ?? "write error \(code)"
        if Self.duplicateKeyCodes.contains(code) {
            self = .duplicateKey(message: message)
        } else if Self.unavailableCodes.contains(code) {
            self = .unavailable(message: message)
        } else {
            self = .other(code: code, domain: Int(MONGOC_ERROR_SERVER.rawValue), message: message)
        }
    }

    /// This error as the answer to every statement of a write with several: a duplicate key
    /// speaks of one statement only, so for the others it is a failure like any other.
    var forWholeWrite: MongoError {
        guard case .duplicateKey(let message) = self else { return self }
        return .other(code: 11000, domain: nil, message: "a write of several documents failed: \(message)")
    }

    /// The codes in a reply's `writeErrors` and `writeConcernError(s)`, which may name a duplicate key
    /// when the top-level error does not.
    private static func replyCodes(_ reply: BSONDocument?) -> [Int] {
        guard let reply else { return [] }
        var codes: [Int] = []
        for key in ["writeErrors", "writeConcernErrors"] {
            for item in reply.array(key) ?? [] {
                if let code = item.documentValue?.int("code") { codes.append(code) }
            }
        }
        if let code = reply.document("writeConcernError")?.int("code") { codes.append(code) }
        return codes
    }

    static func message(of error: bson_error_t) -> String {
        withUnsafeBytes(of: error.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// True if a libmongoc reply carries the error label (e.g. "TransientTransactionError").
func replyHasLabel(_ reply: OpaquePointer, _ label: String) -> Bool {
    mongoc_error_has_label(reply, label)
}
