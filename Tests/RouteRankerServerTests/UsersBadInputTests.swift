import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Every malformed registration gets its 4xx with a message, and stores nothing: the same id can
/// be registered properly afterwards. Pure request handling: the account's endpoints alone, on
/// users kept in memory (`withAccountRouter`), no database.
@Suite struct UsersBadInputTests {
    static let badBodies: [(String, String)] = [
        (#"{"name":"No id"}"#, "id"),
        (#"{"id":"x"}"#, "name"),
        (#"{"id":"x","name":5}"#, "name"),
        (#"{"id":5,"name":"n"}"#, "id"),
        (#"{"id":{"$ne":null},"name":"n"}"#, "id"),
        (#"{"id":"x","name":{"$ne":null}}"#, "name"),
        (#"{"id":"x","name":"n","friends":"y"}"#, "friends"),
        (#"{"id":"x","name":"n","friends":[{"$gt":""}]}"#, "friends"),
        (#"{"id":"x","name":"n","friends":["bad id"]}"#, "friends"),
        (#"{"id":"","name":"n"}"#, "id"),
        (#"{"id":"has space","name":"n"}"#, "id"),
        (#"{"id":"é","name":"n"}"#, "id"),
        (#"{"id":"\#(String(repeating: "a", count: 65))","name":"n"}"#, "id"),
        (#"{"id":"x","name":"\#(String(repeating: "n", count: 201))"}"#, "name"),
        (#"{"id":"x","name":"   "}"#, "name"),
        (#"{"id":"x","name":"a\u0000b"}"#, "name"),
        (#"{"id":"x","name":true}"#, "name"),
        (#"{"id":null,"name":"n"}"#, "id"),
    ]

    @Test(arguments: badBodies)
    func badRegistrationIs400AndStoresNothing(body: String, field: String) async throws {
        try await withAccountRouter { client, users in
            let response = try await client.send(.post, "/v1/users", json: body)
            #expect(response.status == .badRequest, "\(body)")
            #expect(response.errorCode == "invalid_request")
            let error = try #require(response.json["error"] as? [String: Any])
            #expect((error["field"] as? String)?.hasPrefix(field) == true, "\(body): \(error)")
            #expect((error["message"] as? String)?.isEmpty == false)
            // Nothing was stored: "x" is still free.
            #expect(users.all.isEmpty)
            _ = try await client.register("x")
        }
    }

    @Test func malformedJSONAndEmptyBodiesAre400() async throws {
        try await withAccountRouter { client, users in
            for body in ["", "{", "[1,2]", "null", "{\"id\":\"x\",}", "\u{FEFF}garbage"] {
                let response = try await client.send(.post, "/v1/users", json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid_request")
            }
            #expect(users.all.isEmpty)
        }
    }

    @Test func wrongOrMissingContentTypeIs415() async throws {
        try await withAccountRouter { client, _ in
            let body = #"{"id":"x","name":"n"}"#
            for type in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
                let response = try await client.send(.post, "/v1/users", json: body, contentType: type)
                #expect(response.status == .unsupportedMediaType, "\(type)")
                #expect(response.errorCode == "unsupported_media_type")
            }
            let none = try await client.send(.post, "/v1/users", json: body, contentType: nil)
            #expect(none.status == .unsupportedMediaType)
            // With parameters, the media type still counts.
            let withCharset = try await client.send(
                .post, "/v1/users", json: body, contentType: "application/json; charset=utf-8")
            #expect(withCharset.status == .created)
        }
    }

    @Test func bodiesOver16MiBAre413() async throws {
        try await withAccountRouter { client, _ in
            let huge = #"{"id":"x","name":""# + String(repeating: "a", count: 16 * 1024 * 1024) + #""}"#
            let response = try await client.send(.post, "/v1/users", json: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "payload_too_large")
            _ = try await client.register("x")
        }
    }

    @Test func patchRejectsWrongTypesAndChangesNothing() async throws {
        try await withAccountRouter { client, _ in
            let token = try await client.register("ada", friends: ["b"])
            for body in [#"{"name":{"$set":"x"}}"#, #"{"friends":"b"}"#, #"{"friends":[1]}"#, "[]", ""] {
                let response = try await client.send(.patch, "/v1/users/me", token: token, json: body)
                #expect(response.status == .badRequest, "\(body)")
            }
            let me = try await client.send(.get, "/v1/users/me", token: token)
            #expect(me.json["name"] as? String == "ada")
            #expect(me.json["friends"] as? [String] == ["b"])
        }
    }
}
