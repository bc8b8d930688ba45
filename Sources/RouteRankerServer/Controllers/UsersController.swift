import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Registration, the caller's own account, token rotation and friends.
struct UsersController: Sendable {
    let users: any UserStore
    let auth: Authenticator
    let clock: WallClock

    /// `POST /v1/users`: the token is returned once and only its digest is stored.
    func register(_ request: Request, _ context: AppRequestContext) async throws -> CarriesSecret<
        JSONResponse<RegisteredUser>
    > {
        let body = try await request.decodeJSON(RegisterRequest.self)
        try UserRules.validateID(body.id)
        let name = try UserRules.validateName(body.name)
        let friends = try UserRules.validateFriends(body.friends ?? [], of: body.id)
        let token = UserToken.make(for: body.id)
        let user = UserRecord(
            id: body.id, name: name, friends: friends, tokenHash: Secret.hash(token),
            createdAt: clock.now)
        guard try await users.insert(user) else { throw APIError.conflict("the user id '\(user.id)' is taken") }
        return CarriesSecret(.created(RegisteredUser(id: user.id, name: user.name, token: token)))
    }

    /// `GET /v1/users/me`.
    func me(_ request: Request, _ context: AppRequestContext) async throws -> UserView {
        UserView(try await auth.user(request))
    }

    /// `PATCH /v1/users/me`: `name` and/or a new `friends` list.
    func update(_ request: Request, _ context: AppRequestContext) async throws -> UserView {
        let user = try await auth.user(request)
        let body = try await request.decodeJSON(UpdateUserRequest.self)
        let name = try body.name.map(UserRules.validateName)
        let friends = try body.friends.map { try UserRules.validateFriends($0, of: user.id) }
        guard let updated = try await users.update(id: user.id, name: name, friends: friends) else {
            throw APIError.unauthorized()  // deleted between the two calls
        }
        return UserView(updated)
    }

    /// `POST /v1/users/me/token`: a new token; the old one stops working at once.
    func rotateToken(_ request: Request, _ context: AppRequestContext) async throws -> CarriesSecret<TokenView> {
        let user = try await auth.user(request)
        let token = UserToken.make(for: user.id)
        try await users.replaceTokenHash(id: user.id, with: Secret.hash(token))
        return CarriesSecret(TokenView(token: token))
    }

    /// `GET /v1/friends`: the registered users among my friends, sorted by name, then id.
    func friends(_ request: Request, _ context: AppRequestContext) async throws -> Page<FriendView> {
        let user = try await auth.user(request)
        let pageRequest = try PageRequest(request, list: "friends", shape: .nameThenID)
        let sorted = try await users.names(of: user.friends).sorted {
            CodePoint.precedes([$0.name, $0.id], [$1.name, $1.id])
        }
        let page = pageRequest.page(of: sorted, list: "friends", key: { [$0.name, $0.id] })
        return Page(items: page.items, next: page.next, total: sorted.count)
    }
}
