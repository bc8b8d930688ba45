import Foundation

/// A share link: anyone holding its secret may read the route until it expires or is revoked.
package struct LinkRecord: Sendable, Equatable {
    package var id: String
    package var route: String
    package var owner: String
    /// SHA-256 of the secret; the secret itself is shown once and never stored.
    package var secretHash: Data
    package var createdAt: Date
    package var expiresAt: Date

    package init(id: String, route: String, owner: String, secretHash: Data, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.route = route
        self.owner = owner
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
