/// The stored route is no longer the version a writer started from: another writer committed
/// first. Nothing of the losing request is visible; the client sends it again (`409`).
package struct VersionConflict: Error, CustomStringConvertible {
    package init() {}

    package var description: String { "the route changed while this request was written; send it again" }
}

/// A list position that no page of this list could have produced (a forged or foreign cursor).
package struct InvalidListPosition: Error {
    package init() {}
}

/// A stored document that does not have the shape this version writes: a bug or a foreign writer,
/// never the client's fault (`500`).
package enum StorageError: Error, CustomStringConvertible {
    case malformed(String, String?)
    /// A route read without its annotations (a list's read) was about to be written back: that
    /// would drop them. A bug, refused before anything is written.
    case partialRoute(String)

    package var description: String {
        switch self {
        case .malformed(let kind, let id): "stored \(kind) \(id ?? "?") is malformed"
        case .partialRoute(let id): "route \(id) was read without its annotations and cannot be written"
        }
    }
}
