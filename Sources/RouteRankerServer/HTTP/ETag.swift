import Foundation
import Hummingbird

/// Strong entity tags built from version numbers, and `If-None-Match` matching (lists, `W/` tags
/// and `*`, compared weakly as RFC 9110 says for `If-None-Match`).
struct ETag: Equatable {
    let value: String

    /// A tag for `parts` (e.g. route id, route version, zones version); it changes whenever one does.
    init(_ parts: String...) {
        value = "\"" + parts.joined(separator: ".") + "\""
    }

    /// Whether the request's `If-None-Match` names this tag (then the answer is `304`).
    func matches(_ request: Request) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == value
        }
    }
}
