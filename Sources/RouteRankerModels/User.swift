import Foundation
import RouteRankerCore

/// A registered user as stored in `users`.
package struct UserRecord: Sendable, Equatable {
    package var id: String
    package var name: String
    package var friends: [String]
    /// SHA-256 of the current bearer token; the token itself is never stored.
    package var tokenHash: Data
    package var createdAt: Date
    /// Where the user's routes are hidden from everyone else.
    package var privacyZones: [PrivacyZone] = []
    /// Bumped by every change of the zones: part of the ETag of what others download.
    package var zonesVersion = 0

    package init(
        id: String, name: String, friends: [String], tokenHash: Data, createdAt: Date, privacyZones: [PrivacyZone] = [],
        zonesVersion: Int = 0
    ) {
        self.id = id
        self.name = name
        self.friends = friends
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.privacyZones = privacyZones
        self.zonesVersion = zonesVersion
    }
}

/// The rules for user ids and names, in one place.
package enum UserRules {
    package static let maxFriends = 1000
    package static let maxNameLength = 200

    /// 1–64 characters of `[A-Za-z0-9_.-]`, not `.` or `..`; case-sensitive. `.` and `..` are
    /// path segments every HTTP client normalises away: `DELETE /v1/routes/{id}/shares/..` would
    /// reach the server as `DELETE /v1/routes/{id}/` and delete the route.
    package static func isValidID(_ id: String) -> Bool {
        id != "." && id != ".." && (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    package static func validateID(_ id: String, field: String = "id") throws {
        guard isValidID(id) else {
            throw InvalidInput(
                "'\(field)' must be 1–64 characters of letters, digits, '_', '.' or '-', and not '.' or '..'",
                field: field)
        }
    }

    /// A display name: 1–200 characters, not blank, none that `TextRules` forbids.
    package static func validateName(_ name: String) throws -> String {
        try RouteRules.name(name)
    }

    /// Friend ids: each valid, at most 1000, duplicates and the user's own id removed (order kept).
    package static func validateFriends(_ friends: [String], of owner: String) throws -> [String] {
        guard friends.count <= maxFriends else {
            throw InvalidInput("'friends' may list at most \(maxFriends) users", field: "friends")
        }
        var seen = Set<String>()
        return try friends.enumerated().compactMap { index, id in
            guard isValidID(id) else {
                throw InvalidInput(
                    "'friends[\(index)]' is not a valid user id", field: "friends", index: index)
            }
            guard id != owner, seen.insert(id).inserted else { return nil }
            return id
        }
    }
}

/// `POST /v1/users` body.
package struct RegisterRequest: Decodable {
    package var id: String
    package var name: String
    package var friends: [String]?

    package init(id: String, name: String, friends: [String]? = nil) {
        self.id = id
        self.name = name
        self.friends = friends
    }
}

/// `PATCH /v1/users/me` body: each field optional.
package struct UpdateUserRequest: Decodable {
    package var name: String?
    package var friends: [String]?

    package init(name: String? = nil, friends: [String]? = nil) {
        self.name = name
        self.friends = friends
    }
}

/// `201` answer to a registration: the only time the token is shown.
package struct RegisteredUser: Encodable {
    package var id: String
    package var name: String
    package var token: String

    package init(id: String, name: String, token: String) {
        self.id = id
        self.name = name
        self.token = token
    }
}

/// `GET /v1/users/me`.
package struct UserView: Encodable {
    package var id: String
    package var name: String
    package var friends: [String]
    package var createdAt: Date

    package init(_ user: UserRecord) {
        id = user.id
        name = user.name
        friends = user.friends
        createdAt = user.createdAt
    }
}

/// One entry of `GET /v1/friends`.
package struct FriendView: Encodable, Equatable {
    package var id: String
    package var name: String

    package init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// `POST /v1/users/me/token`.
package struct TokenView: Encodable {
    package var token: String

    package init(token: String) {
        self.token = token
    }
}
