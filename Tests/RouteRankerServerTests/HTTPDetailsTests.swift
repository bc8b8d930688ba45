import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// The contract's "Details → HTTP" rules that the hardening issue found broken: query strings
/// decoded as forms, RFC 8259 JSON only, `413` for a chunked body over the limit, and early answers
/// that reach a client which writes its whole body first.
@Suite struct HTTPDetailsTests {
    @Test func queryStringsDecodePlusAsASpace() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let ndjson = Fixture.ndjson(Fixture.track(3))
            let created = try await client.send(
                .post, "/v1/routes?name=Morning+run%21&activity=run", token: token, json: ndjson,
                contentType: "application/x-ndjson")
            let summary = try client.expectCreated(created)
            #expect(summary["name"] as? String == "Morning run!")
            #expect(summary["activity"] as? String == "run")
            let gpx = try await client.send(
                .post, "/v1/routes?name=Evening+walk&activity=walk", token: token,
                json:
                    #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#,
                contentType: "application/gpx+xml")
            #expect(try client.expectCreated(gpx)["name"] as? String == "Evening walk")
            let sorted = try await client.send(.get, "/v1/routes?sort=name&limit=1", token: token)
            let cursor = try #require(sorted.json["next"] as? String)
            let next = try await client.send(.get, "/v1/routes?sort=name&limit=1&cursor=\(cursor)", token: token)
            #expect(next.status == .ok)
        }
    }

    @Test(arguments: [
        #"{"name": "x",}"#, #"{"name": "x"} // note"#, #"{"name": 'x'}"#, #"{"name": "x", "points": [NaN]}"#,
        #"{"name": "x", "recording": 01}"#, #"{"name": "x"} {}"#, #"{"name": "x", /* c */ "activity": "run"}"#,
        #"{"points": [{"lat": 1, "lon": 2, "t": Infinity}]}"#, "{\"name\": \"a\u{01}b\"}",
    ])
    func nonJSONIsRefusedInEveryJSONBody(_ body: String) async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let created = try await client.send(.post, "/v1/routes", token: token, json: body)
            #expect(created.status == .badRequest && created.errorCode == "invalid_request", "\(body)")
            let group = try await client.send(.post, "/v1/groups", token: token, json: body)
            #expect(group.status == .badRequest, "\(body)")
            let user = try await client.send(.patch, "/v1/users/me", token: token, json: body)
            #expect(user.status == .badRequest, "\(body)")
            #expect(try await client.routeTotal(token) == 0)
        }
    }

    @Test func aGroupsRouteSummariesAreTheRouteSummaries() async throws {
        try await withApp { client in
            let token = try await client.register("ada", friends: ["grace"])
            _ = try await client.register("grace")
            let id = try #require(try await client.createRoute(token, Fixture.track(5))["id"] as? String)
            let shared = try await client.send(.post, "/v1/routes/\(id)/shares", token: token, json: #"{"to":"grace"}"#)
            #expect(shared.status == .created)
            let group = try await client.send(
                .post, "/v1/groups", token: token, json: #"{"name":"G","routes":["\#(id)"]}"#)
            let groupID = try #require(group.json["id"] as? String)
            let detail = try await client.send(.get, "/v1/groups/\(groupID)", token: token)
            let summaries = try #require(detail.json["routes"] as? [JSONObject])
            let route = try await client.send(.get, "/v1/routes/\(id)", token: token)
            #expect(summaries.count == 1)
            #expect(summaries.first?["shared_with"] as? [String] == ["grace"])
            // The route's summary but its annotations, which lists leave out (a group holds up to
            // 1,000 routes of up to a megabyte of annotations each: issue 43, row 8).
            #expect(summaries.first?["annotations"] == nil)
            var whole = route.json
            whole["annotations"] = nil
            #expect(sameJSON(summaries.first, whole))
        }
    }

    @Test func aChunkedJSONBodyOverTheLimitIs413AndStoresNothing() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let recording = try #require(try await client.createRoute(token, recording: true)["id"] as? String)
            for path in ["/v1/routes", "/v1/routes/\(recording)/points"] {
                let reply = try await BlockingHTTPClient.exchange(
                    port: port,
                    head: "POST \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked",
                    bodySize: 17 * 1024 * 1024, chunked: true)
                #expect(reply?.status == 413, "\(reply?.text.prefix(300) ?? "no answer")")
            }
            #expect(try await client.routeTotal(token) == 1)
            #expect(try await client.points(token, recording).isEmpty)
        }
    }

    /// The hardening issue's reproduction: `Content-Length: 17000000`, `Connection: close`, no
    /// token, the body written with blocking writes before reading. Every early answer arrives.
    @Test func earlyAnswersReachAClientThatWritesItsWholeBodyFirst() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let cases: [(head: String, status: Int)] = [
                ("POST /v1/routes HTTP/1.1\r\nContent-Type: application/json", 401),
                ("POST /v1/routes HTTP/1.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json", 413),
                ("POST /v1/routes HTTP/1.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: image/png", 415),
                (
                    "POST /v1/routes/000000000000000000000000/points HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json", 404
                ),
            ]
            for (head, status) in cases {
                for connection in ["close", "keep-alive"] {
                    let reply = try await BlockingHTTPClient.exchange(
                        port: port,
                        head: head + "\r\nHost: localhost\r\nConnection: \(connection)\r\nContent-Length: 17000000",
                        bodySize: 17_000_000)
                    #expect(
                        reply?.status == status,
                        "\(head.prefix(40)) \(connection): \(reply?.text.prefix(200) ?? "no answer")")
                }
            }
        }
    }

    /// The hardening issue's CPU bomb: 12 points zig-zagging across the globe, then `similar` with a
    /// wide `max_m`. The work is bounded by the route's length: a clear `422`, at once.
    @Test func similarRefusesRoutesTooLongToCompare() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let points: [TrackPoint] = (0..<12).map { (i: Int) -> TrackPoint in
                let lat: Double = i % 2 == 0 ? 60 : -60
                let lon = Double(i * 30 - 170)
                return TrackPoint(lat: lat, lon: lon, t: 1_700_000_000 + Double(i) * 400_000)
            }
            let created = try client.expectCreated(
                try await client.send(
                    .post, "/v1/routes", token: token, json: Fixture.jsonBody(points, #""name":"Globe""#)))
            #expect(try #require(number(created[object: "stats"]["distance_m"])) > 1_000_000)
            let id = try #require(created["id"] as? String)
            let similar = try await client.send(.get, "/v1/routes/\(id)/similar?max_m=4000", token: token)
            #expect(similar.status == .unprocessableContent && similar.errorCode == "unprocessable", "\(similar.text)")
            let group = try await client.send(
                .post, "/v1/groups", token: token, json: #"{"name":"G","similar_to":"\#(id)","max_m":4000}"#)
            #expect(group.status == .unprocessableContent)
        }
    }
}
