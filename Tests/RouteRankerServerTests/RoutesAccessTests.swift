import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

extension RouteTests {
    /// `Idempotency-Key` on create, other people's routes, malformed ids and error precedence.
    @Suite struct RoutesAccessTests {
        func create(
            _ client: any TestClientProtocol, _ token: String, key: String?, body: String,
            contentType: String = "application/json", query: String = ""
        ) async throws -> TestResponse {
            var headers: HTTPFields = [:]
            if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
            return try await client.send(
                .post, "/v1/routes\(query)", token: token, json: body, contentType: contentType, headers: headers)
        }

        @Test func aRetryWithTheSameKeyReturnsTheFirstRoute() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(6)
                let body = Fixture.jsonBody(Array(points.prefix(3)), #""name":"Once""#, #""recording":true"#)
                let first = try await create(client, token, key: "trip-1", body: body)
                #expect(first.status == .created)
                let id = try #require(first.json["id"] as? String)
                let replay = try await create(client, token, key: "trip-1", body: body)
                #expect(replay.status == .ok)
                #expect(sameJSON(replay.json, first.json))
                #expect(try await client.routeTotal(token) == 1)

                // The replay answers with the route as it is now.
                _ = try await client.appendPoints(token, id, Array(points.suffix(3)))
                let later = try await create(client, token, key: "trip-1", body: body)
                #expect(later.status == .ok && later.json["id"] as? String == id)
                #expect(later.json[object: "stats"][number: "points"] == 6)
                #expect(sameJSON(later.json, try await client.summary(token, id)))

                // The same key with another request: body, content type or query.
                let differences: [(String, String, String)] = [
                    (body.replacingOccurrences(of: "Once", with: "Twice"), "application/json", ""),
                    (Fixture.ndjson(Array(points.prefix(3))), "application/x-ndjson", ""),
                    (body, "application/json", "?activity=run"),
                ]
                for (other, type, query) in differences {
                    let response = try await create(
                        client, token, key: "trip-1", body: other, contentType: type, query: query)
                    #expect(response.status == .unprocessableContent, "\(type) \(query)")
                    #expect(response.errorCode == "unprocessable")
                }
                #expect(try await client.routeTotal(token) == 1)
            }
        }

        @Test func keysArePerUserAndAtMost128Characters() async throws {
            try await withApp { client in
                let ada = try await client.register("ada")
                let bob = try await client.register("bob")
                let body = Fixture.jsonBody(Fixture.track(3))
                let a = try await create(client, ada, key: "shared", body: body)
                let b = try await create(client, bob, key: "shared", body: body)
                #expect(a.status == .created && b.status == .created)
                #expect(a.json["id"] as? String != b.json["id"] as? String)
                #expect(b.json["owner"] as? String == "bob")

                for key in [String(repeating: "k", count: 129), ""] {
                    let refused = try await create(client, ada, key: key, body: body)
                    #expect(refused.status == .badRequest && refused.errorCode == "invalid_request", "\(key.count)")
                }
                let longest = try await create(client, ada, key: String(repeating: "k", count: 128), body: body)
                #expect(longest.status == .created)
                #expect(try await client.routeTotal(ada) == 2)

                // A streamed create replays too.
                let stream = Fixture.ndjson(Fixture.track(4))
                let s1 = try await create(
                    client, ada, key: "s", body: stream, contentType: "application/x-ndjson", query: "?name=S")
                let s2 = try await create(
                    client, ada, key: "s", body: stream, contentType: "application/x-ndjson", query: "?name=S")
                #expect(s1.status == .created && s2.status == .ok)
                #expect(s1.json["id"] as? String == s2.json["id"] as? String)
                #expect(try await client.routeTotal(ada) == 3)
            }
        }

        @Test func aReusedKeyIsJudgedBeforeTheBodyAndConcurrentRetriesMakeOneRoute() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let body = Fixture.jsonBody(Fixture.track(3))
                #expect(try await create(client, token, key: "k", body: body).status == .created)
                for bad in [#"{"points":[{"lat":99,"lon":0,"t":5}]}"#, "{", ""] {
                    let response = try await create(client, token, key: "k", body: bad)
                    #expect(response.status == .unprocessableContent, "\(bad)")
                }
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<6 {
                        group.addTask { try await create(client, token, key: "burst", body: body).status }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
                #expect(statuses.allSatisfy { [.created, .ok, .conflict].contains($0) }, "\(statuses)")
                #expect(try await client.routeTotal(token) == 2)
            }
        }

        @Test func aRefusedRequestDoesNotUseUpItsKey() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let bad = try await create(client, token, key: "k", body: #"{"points":[{"lat":99,"lon":0,"t":5}]}"#)
                #expect(bad.status == .badRequest)
                let good = try await create(client, token, key: "k", body: Fixture.jsonBody(Fixture.track(2)))
                #expect(good.status == .created)
                #expect(try await client.routeTotal(token) == 1)
            }
        }

        @Test func otherPeoplesRoutesAreIndistinguishableFromAbsentOnes() async throws {
            try await withApp { client in
                let ada = try await client.register("ada")
                let bob = try await client.register("bob")
                let points = Fixture.track(4)
                let bobs = try await client.createRoute(bob, Array(points.prefix(2)), name: "Bob's", recording: true)
                let bobsID = try bobs.requiredID()
                let append = Fixture.jsonBody(Array(points.suffix(2)))

                func answers(_ id: String) async throws -> [TestResponse] {
                    [
                        try await client.send(.get, "/v1/routes/\(id)", token: ada),
                        try await client.send(.get, "/v1/routes/\(id)/points", token: ada),
                        try await client.send(.get, "/v1/routes/\(id)/points?format=gpx", token: ada),
                        try await client.append(ada, id, append),
                        try await client.append(ada, id, append, contentType: "application/gpx+xml"),
                        try await client.send(.post, "/v1/routes/\(id)/finish", token: ada),
                        try await client.send(.patch, "/v1/routes/\(id)", token: ada, json: #"{"name":"Mine"}"#),
                        try await client.send(.delete, "/v1/routes/\(id)", token: ada),
                    ]
                }
                let absent = try await answers("000000000000000000000000")
                let foreign = try await answers(bobsID)
                for (a, f) in zip(absent, foreign) {
                    #expect(f.status == .notFound && f.errorCode == "not_found")
                    #expect(f.text == a.text)
                }
                for id in [
                    "abc", String(repeating: "a", count: 2000), "%7B%22%24ne%22%3Anull%7D", bobsID.uppercased(),
                    "%20" + bobsID,
                ] {
                    for response in try await answers(id) {
                        #expect(response.status == .notFound, "\(id.prefix(30))")
                        #expect(response.text == absent[0].text, "\(id.prefix(30))")
                    }
                }
                // Bob's route is untouched.
                let after = try await client.summary(bob, bobsID)
                #expect(sameJSON(after, bobs))
                #expect(try await client.routeTotal(ada) == 0)
                #expect(try await client.send(.get, "/v1/routes/\(bobsID)", token: nil).status == .unauthorized)
                #expect(try await client.send(.get, "/v1/routes", token: "nope").status == .unauthorized)
                let wrongMethod = try await client.send(.put, "/v1/routes/\(bobsID)", token: ada, json: "{}")
                #expect(wrongMethod.status == .methodNotAllowed)
                #expect(wrongMethod.headers[.allow]?.contains("PATCH") == true)
            }
        }

        @Test func errorPrecedenceOnAppend() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let id = try await client.createRoute(token, Fixture.track(2)).requiredID()  // finished
                let badPoint = #"{"points":[{"lat":99,"lon":0,"t":5}]}"#
                // 415 before 409, 409 before the body.
                #expect(
                    try await client.append(token, id, badPoint, contentType: "application/xml").status
                        == .unsupportedMediaType)
                #expect(try await client.append(token, id, badPoint).status == .conflict)
                #expect(try await client.append(token, id, "").status == .conflict)
                #expect(try await client.append(token, id, "nan", contentType: "text/plain").status == .conflict)
                // 401 first of all.
                #expect(try await client.send(.post, "/v1/routes/\(id)/points", json: badPoint).status == .unauthorized)
                #expect(
                    try await client.send(.post, "/v1/routes", json: "{", contentType: "a/b").status == .unauthorized)
            }
        }
    }
}
