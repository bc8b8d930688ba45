import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Resolves `Authorization: Bearer <token>` to a user: the user the token names (`UserToken`) by
/// `_id`, or an older token's SHA-256 by index; the stored digest is then compared with the
/// presented token in constant time.
struct Authenticator: Sendable {
    let users: any UserStore

    /// The caller, or `401` with `WWW-Authenticate: Bearer` when the token is missing or wrong.
    func user(_ request: Request) async throws -> UserRecord {
        let token = try token(request)
        let found: UserRecord? =
            switch UserToken(token) {
            case .named(let user): try await users.find(id: user)
            case .unnamed: try await users.find(tokenHash: Secret.hash(token))
            case .malformed: nil
            }
        return try accept(token, found: found)
    }

    /// The request's bearer token, or `401` when it is missing or malformed.
    func token(_ request: Request) throws -> String {
        guard let token = Self.bearerToken(request) else { throw APIError.unauthorized() }
        return token
    }

    /// The user found by the digest of `token`, once the stored digest is compared with it in
    /// constant time; `401` when none was found or it does not match.
    func accept(_ token: String, found user: UserRecord?) throws -> UserRecord {
        guard let user, Secret.matches(token, storedHash: user.tokenHash) else {
            throw APIError.unauthorized("the bearer token is not valid")
        }
        return user
    }

    /// The token of the request's `Authorization: Bearer` header, if well formed.
    static func bearerToken(_ request: Request) -> String? {
        BearerToken.parse(request.headers[.authorization])
    }
}
