import Foundation
import RouteRankerCore
import RouteRankerModels

/// The users, as request handling needs them: what `UserRepository` does against the database,
/// behind a protocol so that tests of pure request handling (validation, status codes, error
/// bodies, who may change what) can run on a store in memory, without a database. Every behaviour
/// of `UserRepository` itself keeps its tests against the real database.
package protocol UserStore: Sendable {
    /// Stores a new user; `false` when the id is taken.
    func insert(_ user: UserRecord) async throws -> Bool
    func find(id: String) async throws -> UserRecord?
    /// The user whose token has this SHA-256 (tokens from before tokens named their user).
    func find(tokenHash: Data) async throws -> UserRecord?
    /// The registered users among `ids`, as `(id, name)`, in no particular order.
    func names(of ids: [String]) async throws -> [FriendView]
    /// Sets the name and/or friends; returns the updated user (nil when there is none).
    func update(id: String, name: String?, friends: [String]?) async throws -> UserRecord?
    /// Replaces the token digest: the old token stops working with this write.
    func replaceTokenHash(id: String, with hash: Data) async throws
    /// Replaces the privacy zones and bumps their version.
    func replacePrivacyZones(id: String, with zones: [PrivacyZone]) async throws
    /// The owners' zones and their version, by id (absent ids are left out).
    func privacy(of ids: [String]) async throws -> [String: (zones: [PrivacyZone], version: Int)]
}

extension UserRepository: UserStore {}
