import Foundation
import Hummingbird

/// Resolves `Authorization: Bearer <token>` to a user. The token's SHA-256 is looked up by index;
/// the stored digest is then compared with the presented token in constant time.
struct Authenticator: Sendable {
    let users: UserRepository

    /// The caller, or `401` with `WWW-Authenticate: Bearer` when the token is missing or wrong.
    func user(_ request: Request) async throws -> UserRecord {
        guard let token = Self.bearerToken(request) else { throw APIError.unauthorized() }
        guard let user = try await users.find(tokenHash: Secret.hash(token)),
            Secret.matches(token, storedHash: user.tokenHash)
        else {
            throw APIError.unauthorized("the bearer token is not valid")
        }
        return user
    }

    /// The token of the request's `Authorization: Bearer` header, if well formed.
    static func bearerToken(_ request: Request) -> String? {
        BearerToken.parse(request.headers[.authorization])
    }
}
