import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import Synchronization

/// Users kept in memory, for tests of request handling that need nothing else: the same answers
/// as `UserRepository` (an id taken once, a token found by its digest, zones versioned), without
/// a database. `UserRepository` itself is tested against the real database.
final class InMemoryUserStore: UserStore {
    private let users = Mutex<[String: UserRecord]>([:])

    /// Every stored user, for assertions on what was (not) stored.
    var all: [UserRecord] { users.withLock { Array($0.values) } }

    func insert(_ user: UserRecord) async throws -> Bool {
        users.withLock { users in
            guard users[user.id] == nil else { return false }
            users[user.id] = user
            return true
        }
    }

    func find(id: String) async throws -> UserRecord? {
        users.withLock { $0[id] }
    }

    func find(tokenHash: Data) async throws -> UserRecord? {
        users.withLock { $0.values.first { $0.tokenHash == tokenHash } }
    }

    func names(of ids: [String]) async throws -> [FriendView] {
        users.withLock { users in Set(ids).compactMap { users[$0].map { FriendView(id: $0.id, name: $0.name) } } }
    }

    func update(id: String, name: String?, friends: [String]?) async throws -> UserRecord? {
        users.withLock { users in
            guard var user = users[id] else { return nil }
            if let name { user.name = name }
            if let friends { user.friends = friends }
            users[id] = user
            return user
        }
    }

    func replaceTokenHash(id: String, with hash: Data) async throws {
        users.withLock { $0[id]?.tokenHash = hash }
    }

    func replacePrivacyZones(id: String, with zones: [PrivacyZone]) async throws {
        users.withLock { users in
            users[id]?.privacyZones = zones
            users[id]?.zonesVersion += 1
        }
    }

    func privacy(of ids: [String]) async throws -> [String: (zones: [PrivacyZone], version: Int)] {
        users.withLock { users in
            var found: [String: (zones: [PrivacyZone], version: Int)] = [:]
            for id in ids { if let user = users[id] { found[id] = (user.privacyZones, user.zonesVersion) } }
            return found
        }
    }
}
