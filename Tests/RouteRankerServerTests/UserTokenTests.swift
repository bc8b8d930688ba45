import Foundation
import Mongo
import RouteRankerStorage
import Testing

@testable import RouteRankerServer

/// Tokens that name their user (`UserToken`): the name only says which user document to compare
/// with, so a token with another user's name, or a malformed one, is refused; a token from before
/// tokens named their user still works, by its digest, until it is rotated.
@Suite struct UserTokenTests {
    @Test func aTokenSaysWhichUserItNames() {
        #expect(UserToken("ada.L-1_x~3q2abc") == .named(user: "ada.L-1_x"))
        #expect(UserToken("3q2-abc_DEF") == .unnamed)
        #expect(UserToken("~3q2") == .malformed)
        #expect(UserToken("ada~") == .malformed)
        #expect(UserToken("ada~b~c") == .malformed)
        #expect(UserToken(String(repeating: "a", count: 65) + "~x") == .malformed)
        let made = UserToken.make(for: "grace")
        #expect(UserToken(made) == .named(user: "grace"))
        #expect(made.dropFirst("grace~".count).count == 43)
    }

    @Test func aTokenWithAnotherUsersNameOrNoUserIsRefusedEverywhere() async throws {
        try await withAppAndDatabase { client, _ in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let route = try await client.newSharedRoute(ada)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            let secret = String(ada.dropFirst("ada~".count))
            for forged in ["bob~\(secret)", "~\(secret)", "nobody~\(secret)", "\(bob)x"] {
                for path in ["/v1/users/me", "/v1/routes/\(route)", "/v1/routes/\(route)/points", "/v1/shares"] {
                    let response = try await client.send(.get, path, token: forged)
                    #expect(response.status == .unauthorized, "\(forged) on \(path)")
                }
            }
        }
    }

    @Test func anOlderTokenWorksByItsDigestUntilItIsRotated() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob"])
            _ = try await client.register("bob")
            let route = try await client.newSharedRoute(ada)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            // Bob's token as a server from before named tokens issued it: 43 characters, no `~`.
            let older = Secret.generate()
            _ = try await database.collection("users").updateOne(
                filter: ["_id": "bob"], update: ["$set": ["token_hash": .binary(subtype: 0, Array(Secret.hash(older)))]]
            )

            #expect(try await client.send(.get, "/v1/users/me", token: older).json["id"] as? String == "bob")
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: older).status == .ok)
            #expect(try await client.send(.get, "/v1/routes/\(route)/points", token: older).status == .ok)
            let inbox = try await client.send(.get, "/v1/shares", token: older)
            #expect(SharingFixture.ids(inbox, key: "route") == [route])

            let rotated = try await client.send(.post, "/v1/users/me/token", token: older)
            let token = try #require(rotated.json["token"] as? String)
            #expect(token.hasPrefix("bob~"))
            #expect(try await client.send(.get, "/v1/users/me", token: older).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: older).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: token).status == .ok)
        }
    }
}
