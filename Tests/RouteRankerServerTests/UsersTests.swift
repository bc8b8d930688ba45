import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite struct UsersTests {
    @Test func registerShowsTheTokenOnceAndMeReturnsTheAccount() async throws {
        try await withAccountRouter { client, _ in
            let response = try await client.send(
                .post, "/v1/users", json: #"{"id":"ada.L-1_x","name":"Ada","friends":["grace","grace","ada.L-1_x"]}"#)
            #expect(response.status == .created)
            let token = try #require(response.json["token"] as? String)
            // The user's id, `~`, then 32 bytes in base64url without padding.
            #expect(token.hasPrefix("ada.L-1_x~"))
            #expect(token.dropFirst("ada.L-1_x~".count).count == 43)
            #expect(response.json["id"] as? String == "ada.L-1_x")
            #expect(response.json["name"] as? String == "Ada")

            let me = try await client.send(.get, "/v1/users/me", token: token)
            #expect(me.status == .ok)
            #expect(me.json["id"] as? String == "ada.L-1_x")
            #expect(me.json["friends"] as? [String] == ["grace"])  // duplicates and self dropped
            #expect(me.json["token"] == nil)
            let created = try #require(me.json["created_at"] as? String)
            #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        }
    }

    @Test func takenIdIsConflictAndIdsAreCaseSensitive() async throws {
        try await withAccountRouter { client, _ in
            _ = try await client.register("ada")
            let again = try await client.send(.post, "/v1/users", json: #"{"id":"ada","name":"Other"}"#)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "conflict")
            _ = try await client.register("ADA")
        }
    }

    @Test func missingOrWrongTokenIs401WithChallenge() async throws {
        try await withAccountRouter { client, _ in
            let token = try await client.register("ada")
            for header in [nil, "Bearer nope", "Basic \(token)", "Bearer", "Token \(token)"] {
                var headers: HTTPFields = [:]
                if let header { headers[.authorization] = header }
                let response = try await client.execute(uri: "/v1/users/me", method: .get, headers: headers)
                #expect(response.status == .unauthorized, "\(header ?? "none")")
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
                #expect(response.errorCode == "unauthorized")
            }
            // The scheme is case-insensitive.
            let lower = try await client.execute(
                uri: "/v1/users/me", method: .get, headers: [.authorization: "bearer \(token)"])
            #expect(lower.status == .ok)
        }
    }

    @Test func patchRenamesAndReplacesFriends() async throws {
        try await withAccountRouter { client, _ in
            let token = try await client.register("ada", friends: ["a", "b"])
            let renamed = try await client.send(.patch, "/v1/users/me", token: token, json: #"{"name":"Ada L."}"#)
            #expect(renamed.status == .ok)
            #expect(renamed.json["name"] as? String == "Ada L.")
            #expect(renamed.json["friends"] as? [String] == ["a", "b"])

            let refriended = try await client.send(.patch, "/v1/users/me", token: token, json: #"{"friends":["c"]}"#)
            #expect(refriended.json["friends"] as? [String] == ["c"])
            #expect(refriended.json["name"] as? String == "Ada L.")

            let bad = try await client.send(.patch, "/v1/users/me", token: token, json: #"{"name":""}"#)
            #expect(bad.status == .badRequest)
            let me = try await client.send(.get, "/v1/users/me", token: token)
            #expect(me.json["name"] as? String == "Ada L.")
        }
    }

    @Test func rotatingTheTokenRetiresTheOldOne() async throws {
        try await withAccountRouter { client, _ in
            let old = try await client.register("ada")
            let rotated = try await client.send(.post, "/v1/users/me/token", token: old)
            #expect(rotated.status == .ok)
            let new = try #require(rotated.json["token"] as? String)
            #expect(new != old)
            #expect(try await client.send(.get, "/v1/users/me", token: old).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/users/me", token: new).status == .ok)
        }
    }

    @Test func friendsListsRegisteredFriendsByNameThenIdWithPages() async throws {
        try await withAccountRouter { client, _ in
            let token = try await client.register("me", friends: ["z1", "b2", "ghost", "a3", "b1"])
            _ = try await client.register("z1", name: "Zed")
            _ = try await client.register("b2", name: "Bea")
            _ = try await client.register("b1", name: "Bea")
            _ = try await client.register("a3", name: "Ália")  // code-point order: after "Zed"
            _ = try await client.register("stranger", name: "Not a friend")

            let all = try await client.send(.get, "/v1/friends", token: token)
            #expect(all.status == .ok)
            let items = try #require(all.json["items"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == ["b1", "b2", "z1", "a3"])
            #expect(items.first?["name"] as? String == "Bea")
            #expect(all.json["total"] as? Int == 4)
            #expect(all.json["next"] is NSNull)

            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "/v1/friends?limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, query, token: token)
                #expect(page.status == .ok)
                seen += (page.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page.json["next"] as? String
            } while cursor != nil && seen.count < 10
            #expect(seen == ["b1", "b2", "z1", "a3"])

            for query in ["limit=0", "limit=201", "limit=x", "cursor=garbage"] {
                let bad = try await client.send(.get, "/v1/friends?\(query)", token: token)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(bad.errorCode == "invalid_request")
            }
        }
    }
}
