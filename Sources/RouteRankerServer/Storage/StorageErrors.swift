/// The stored route is no longer the version a writer started from: another writer committed
/// first. Nothing of the losing request is visible; the client sends it again (`409`).
struct VersionConflict: Error, CustomStringConvertible {
    var description: String { "the route changed while this request was written; send it again" }
}

/// A list position that no page of this list could have produced (a forged or foreign cursor).
struct InvalidListPosition: Error {}

/// A stored document that does not have the shape this version writes: a bug or a foreign writer,
/// never the client's fault (`500`).
enum StorageError: Error, CustomStringConvertible {
    case malformed(String, String?)

    var description: String {
        switch self {
        case .malformed(let kind, let id): "stored \(kind) \(id ?? "?") is malformed"
        }
    }
}
