import RouteRankerModels

/// A bearer token names its user: `<user id>~<secret>` (both parts are RFC 6750 token68
/// characters; `~` is in neither an id nor base64url, so the split is unambiguous). The whole
/// token's SHA-256 is what `users` keeps, so the id part cannot be changed without failing the
/// check; it only tells the server which user document to compare with. That document is then read
/// by `_id` in the same query as the route owner's (`RequestReads`), one round trip instead of two.
///
/// Tokens issued before tokens named their user have no `~`; they are found by their digest's
/// index, as before, until their user rotates them.
package enum UserToken: Equatable {
    /// A token that names `user`.
    case named(user: String)
    /// A token from before: look it up by its digest.
    case unnamed
    /// A `~` with no valid user id before it: no user can have it.
    case malformed

    /// A new token for `user`: its id, `~`, then 256 random bits (`Secret.generate`).
    package static func make(for user: String) -> String { "\(user)~\(Secret.generate())" }

    /// What `token` says about its user.
    package init(_ token: String) {
        guard let tilde = token.utf8.firstIndex(of: UInt8(ascii: "~")) else {
            self = .unnamed
            return
        }
        let user = String(token[..<tilde])
        let secret = token[token.index(after: tilde)...]
        guard UserRules.isValidID(user), !secret.isEmpty, !secret.contains("~") else {
            self = .malformed
            return
        }
        self = .named(user: user)
    }
}
