import Foundation
import RouteRankerCore

/// A registered user as stored in `users`.
struct UserRecord: Sendable, Equatable {
    var id: String
    var name: String
    var friends: [String]
    /// SHA-256 of the current bearer token; the token itself is never stored.
    var tokenHash: Data
    var createdAt: Date
    /// Where the user's routes are hidden from everyone else.
    var privacyZones: [PrivacyZone] = []
    /// Bumped by every change of the zones: part of the ETag of what others download.
    var zonesVersion = 0
}

/// The rules for user ids and names, in one place.
enum UserRules {
    static let maxFriends = 1000
    static let maxNameLength = 200

    /// 1–64 characters of `[A-Za-z0-9_.-]`; case-sensitive.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    static func validateID(_ id: String, field: String = "id") throws {
        guard isValidID(id) else {
            throw InvalidInput(
                "'\(field)' must be 1–64 characters of letters, digits, '_', '.' or '-'", field: field)
        }
    }

    /// A display name: 1–200 characters, not blank, no control characters.
    static func validateName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, name.count <= maxNameLength else {
            throw InvalidInput("'name' must be 1–\(maxNameLength) characters and not blank", field: "name")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InvalidInput("'name' must not contain control characters", field: "name")
        }
        return name
    }

    /// Friend ids: each valid, at most 1000, duplicates and the user's own id removed (order kept).
    static func validateFriends(_ friends: [String], of owner: String) throws -> [String] {
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
struct RegisterRequest: Decodable {
    var id: String
    var name: String
    var friends: [String]?
}

/// `PATCH /v1/users/me` body: each field optional.
struct UpdateUserRequest: Decodable {
    var name: String?
    var friends: [String]?
}

/// `201` answer to a registration: the only time the token is shown.
struct RegisteredUser: Encodable {
    var id: String
    var name: String
    var token: String
}

/// `GET /v1/users/me`.
struct UserView: Encodable {
    var id: String
    var name: String
    var friends: [String]
    var createdAt: Date

    init(_ user: UserRecord) {
        id = user.id
        name = user.name
        friends = user.friends
        createdAt = user.createdAt
    }
}

/// One entry of `GET /v1/friends`.
struct FriendView: Encodable, Equatable {
    var id: String
    var name: String
}

/// `POST /v1/users/me/token`.
struct TokenView: Encodable {
    var token: String
}
