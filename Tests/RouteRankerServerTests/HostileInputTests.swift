import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RouteRankerCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 43's rows on hostile input and HTTP details (API.md, "Details → HTTP" and "Limits and
/// hostile input"): annotations bounded (#8), `.`/`..` ids and path parameters decoded once (#11),
/// cache and sniffing headers (#12), the `Host` header (#13), `HEAD` and the HTTP layer's errors
/// in the envelope (#15), control and bidi characters in names and texts (#16).
@Suite struct HostileInputTests {
    // MARK: #8 annotations

    static func annotations(_ count: Int, text: String = "note") -> String {
        "[" + (0..<count).map { _ in #"{"lat":52.5,"lon":13.4,"text":"\#(text)"}"# }.joined(separator: ",") + "]"
    }

    @Test func aRouteHoldsAtMostAThousandAnnotationsCountingWhatItHas() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let points = Fixture.jsonArray(Fixture.track(3))
            let tooMany = try await client.send(
                .post, "/v1/routes", token: token,
                json: #"{"points":\#(points),"annotations":\#(Self.annotations(1001))}"#)
            #expect(tooMany.status == .contentTooLarge && tooMany.errorCode == "payload_too_large")
            #expect(try await client.routeTotal(token) == 0)

            let recording = try await client.expectCreated(
                client.send(
                    .post, "/v1/routes", token: token,
                    json: #"{"recording":true,"points":\#(points),"annotations":\#(Self.annotations(600))}"#))
            let id = try recording.requiredID()
            let later = Fixture.jsonArray([Fixture.after(Fixture.track(3)[2], metres: 10, seconds: 10)])
            let over = try await client.append(
                token, id, #"{"points":\#(later),"annotations":\#(Self.annotations(401))}"#)
            #expect(over.status == .contentTooLarge && over.errorCode == "payload_too_large")
            let unchanged = try await client.summary(token, id)
            #expect((unchanged["annotations"] as? [Any])?.count == 600)
            #expect((unchanged["stats"] as? JSONObject)?["points"] as? Int == 3)  // the points neither
            let fits = try await client.append(token, id, #"{"annotations":\#(Self.annotations(400))}"#)
            #expect(fits.status == .ok)
            let full = try await client.summary(token, id)
            #expect((full["annotations"] as? [Any])?.count == 1000)
            let one = try await client.append(token, id, #"{"annotations":\#(Self.annotations(1))}"#)
            #expect(one.status == .contentTooLarge)

            // GPX waypoints count too.
            let wpts = (0..<1001).map { #"<wpt lat="1" lon="2"><name>w\#($0)</name></wpt>"# }.joined()
            let gpx = try await client.send(
                .post, "/v1/routes", token: token,
                json:
                    #"<gpx version="1.1">\#(wpts)<trk><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#,
                contentType: "application/gpx+xml")
            #expect(gpx.status == .contentTooLarge && gpx.errorCode == "payload_too_large")
            #expect(try await client.routeTotal(token) == 1)
        }
    }

    @Test func anAnnotationsTextIsAtMostAThousandCharacters() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let points = Fixture.jsonArray(Fixture.track(3))
            let long = try await client.send(
                .post, "/v1/routes", token: token,
                json:
                    #"{"points":\#(points),"annotations":\#(Self.annotations(1, text: String(repeating: "é", count: 1001)))}"#
            )
            #expect(long.status == .badRequest && long.errorCode == "invalid_request")
            let error = long.json["error"] as? JSONObject
            #expect(error?["field"] as? String == "annotations" && error?["key"] as? String == "text")
            let fits = try await client.send(
                .post, "/v1/routes", token: token,
                json:
                    #"{"points":\#(points),"annotations":\#(Self.annotations(1, text: String(repeating: "é", count: 1000)))}"#
            )
            #expect(fits.status == .created)
            let wpt = try await client.send(
                .post, "/v1/routes", token: token,
                json:
                    #"<gpx version="1.1"><wpt lat="1" lon="2"><desc>\#(String(repeating: "x", count: 1001))</desc></wpt><trk><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#,
                contentType: "application/gpx+xml")
            #expect(wpt.status == .badRequest && wpt.errorCode == "invalid_request")
            #expect(try await client.routeTotal(token) == 1)
        }
    }

    /// An archive whose files break the rules: each fails alone, with its upload's code; a file's
    /// name with control and bidi characters is cleaned, not refused.
    @Test func importsFailTheFilesThatBreakTheRulesWithTheUploadsCode() async throws {
        let script = #"""
            import sys, zipfile
            trk = '<trk>{name}<trkseg><trkpt lat="1" lon="2"><time>2026-01-0{d}T00:00:00Z</time></trkpt></trkseg></trk>'
            many = ''.join(f'<wpt lat="1" lon="2"><name>w{i}</name></wpt>' for i in range(1001))
            long = '<wpt lat="1" lon="2"><name>' + 'x' * 1001 + '</name></wpt>'
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr("many.gpx", '<gpx version="1.1">' + many + trk.format(name='', d=1) + '</gpx>')
                z.writestr("long.gpx", '<gpx version="1.1">' + long + trk.format(name='', d=2) + '</gpx>')
                z.writestr("named.gpx", '<gpx version="1.1"><wpt lat="1" lon="2"><desc>one\ntwo</desc></wpt>'
                           + trk.format(name='<name>evil&#x202E;gpj&#9;exe</name>', d=3) + '</gpx>')
            """#
        let archive = try pythonArchive(script)
        try await withApp { client in
            let me = try await client.register("importer")
            let job = try await ImportsTests.importArchive(client, me, archive)
            let id = try job.requiredID()
            let items = SharingFixture.items(try await client.send(.get, "/v1/imports/\(id)/files", token: me))
            #expect(items.map { $0["status"] as? String } == ["failed", "failed", "imported"])
            #expect((items.first?["error"] as? JSONObject)?["code"] as? String == "payload_too_large")
            #expect((items.dropFirst().first?["error"] as? JSONObject)?["code"] as? String == "invalid_request")
            let route = try await client.summary(me, try #require(items.last?["route"] as? String))
            #expect(route["name"] as? String == "evilgpj exe")
            #expect((route["annotations"] as? [JSONObject])?.first?["text"] as? String == "one two")
        }
    }

    // MARK: #11 ids and path parameters

    @Test func dotIDsAreRefusedAndPathParametersAreDecodedOnce() async throws {
        try await withApp { client in
            for id in [".", ".."] {
                let response = try await client.send(.post, "/v1/users", json: #"{"id":"\#(id)","name":"x"}"#)
                #expect(response.status == .badRequest && response.errorCode == "invalid_request", "\(id)")
            }
            let ada = try await client.register("ada", friends: ["bob"])
            _ = try await client.register("bob")
            let id = try await client.createRoute(ada, Fixture.track(3)).requiredID()
            #expect(
                try await client.send(.post, "/v1/routes/\(id)/shares", token: ada, json: #"{"to":"bob"}"#).status
                    == .created)
            // `%2E%2E` reaches the revoke handler as `..`: no such share, and the route stays.
            for raw in ["%2E%2E", "%2e%2e", ".%2E"] {
                let revoke = try await client.send(.delete, "/v1/routes/\(id)/shares/\(raw)", token: ada)
                #expect(revoke.status == .notFound && revoke.errorCode == "not_found", "\(raw)")
            }
            #expect(try await client.send(.get, "/v1/routes/\(id)", token: ada).status == .ok)
            // Decoded exactly once: `%252E` is `%2E`, not `.`; `%62ob` is `bob`.
            #expect(try await client.send(.delete, "/v1/routes/\(id)/shares/%2562ob", token: ada).status == .notFound)
            #expect(try await client.send(.delete, "/v1/routes/\(id)/shares/%62ob", token: ada).status == .noContent)
            #expect(try await client.send(.get, "/v1/routes/%\(id)", token: ada).status == .notFound)
        }
    }

    // MARK: #12 headers

    @Test func secretsAreNotStoredAndEveryAnswerIsNotSniffed() async throws {
        try await withApp { client in
            let register = try await client.send(.post, "/v1/users", json: #"{"id":"ada","name":"Ada"}"#)
            let token = try #require(register.json["token"] as? String)
            var answers: [(String, TestResponse, String?)] = [("register", register, "no-store")]
            let rotated = try await client.send(.post, "/v1/users/me/token", token: token)
            answers.append(("rotate", rotated, "no-store"))
            let me = try #require(rotated.json["token"] as? String)
            let device = try await client.send(.post, "/v1/devices", token: me, json: #"{"name":"Phone"}"#)
            answers.append(("device", device, "no-store"))
            let deviceID = try #require(((device.json["device"] as? JSONObject)?["id"] ?? device.json["id"]) as? String)
            let key = try await client.send(.post, "/v1/devices/\(deviceID)/key", token: me)
            answers.append(("device key", key, "no-store"))
            let route = try await client.createRoute(me, Fixture.track(3)).requiredID()
            let link = try await client.send(.post, "/v1/routes/\(route)/links", token: me)
            answers.append(("link", link, "no-store"))
            let secretURL = try #require(link.json["url"] as? String)
            answers.append(
                ("links", try await client.send(.get, "/v1/routes/\(route)/links", token: me), "private, no-cache"))
            answers.append(("me", try await client.send(.get, "/v1/users/me", token: me), "private, no-cache"))
            answers.append(
                ("route", try await client.send(.get, "/v1/routes/\(route)", token: me), "private, no-cache"))
            answers.append(("routes", try await client.send(.get, "/v1/routes", token: me), "private, no-cache"))
            answers.append(
                ("download", try await client.send(.get, "/v1/routes/\(route)/points?format=gpx", token: me), nil))
            answers.append(("map", try await client.send(.get, "/v1/routes/\(route)/map.svg", token: me), nil))
            answers.append(("error", try await client.send(.get, "/v1/routes/nope", token: me), "private, no-cache"))
            answers.append(("401", try await client.send(.get, "/v1/users/me"), nil))
            answers.append(("unknown path", try await client.send(.get, "/nowhere"), nil))
            answers.append(("405", try await client.send(.put, "/v1/routes"), nil))
            answers.append(("linked", try await client.send(.get, secretURL), nil))
            answers.append(("healthz", try await client.send(.get, "/healthz"), nil))
            let page = try await client.send(.get, "/")
            answers.append(("page", page, nil))
            #expect(page.headers[.contentSecurityPolicy] != nil)  // the pages' own headers stay
            for (what, response, cacheControl) in answers {
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(what)")
                if let cacheControl { #expect(response.headers[.cacheControl] == cacheControl, "\(what)") }
            }
            let download = answers.first { $0.0 == "download" }?.1
            #expect(download?.headers[.cacheControl] == "private, no-cache")
        }
    }

    // MARK: #13 Host

    @Test func aBadHostHeaderIsRefusedAndNeverReflected() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            for host in ["a b", #"x"><script>alert(1)</script>"#, "example.com:80a", "[::1", "exa%mple.com"] {
                let reply = try await RawExchange.send(port: port, Self.deviceRequest(host: host, token: token))
                #expect(reply.status == 400, "\(host)")
                #expect(reply.body.contains(#""code":"invalid_request""#), "\(host)")
                #expect(!reply.body.contains("script"), "\(host)")
            }
            let none = try await client.send(.get, "/v1/devices", token: token)
            #expect(SharingFixture.items(none).isEmpty)
            for host in ["example.com:8080", "[::1]:80", "192.0.2.1", "xn--bcher-kva.example"] {
                let reply = try await RawExchange.send(port: port, Self.deviceRequest(host: host, token: token))
                #expect(reply.status == 201, "\(host)")
                #expect(reply.body.contains("http://\(host)/"), "\(host)")
            }
        }
    }

    static func deviceRequest(host: String, token: String) -> [UInt8] {
        let body = #"{"name":"Phone"}"#
        return Array(
            ("POST /v1/devices HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                + body).utf8)
    }

    // MARK: #15 HEAD and the HTTP layer's errors

    @Test func headIsAnsweredWhereverGetIs() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let id = try await client.createRoute(token, Fixture.track(3)).requiredID()
            for path in ["/healthz", "/v1/routes/\(id)", "/v1/routes/\(id)/points?format=csv", "/v1/routes", "/"] {
                let get = try await client.send(.get, path, token: token)
                let head = try await client.send(.head, path, token: token)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.readableBytes == 0, "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                #expect(head.headers[.eTag] == get.headers[.eTag], "\(path)")
            }
            #expect(try await client.send(.head, "/v1/routes/nope", token: token).status == .notFound)
            #expect(try await client.send(.head, "/v1/routes/\(id)").status == .unauthorized)
            let postOnly = try await client.send(.head, "/v1/routes/\(id)/finish", token: token)
            #expect(postOnly.status == .methodNotAllowed)
            let wrong = try await client.send(.put, "/v1/routes/\(id)", token: token)
            #expect(wrong.headers[.allow]?.contains("HEAD") == true)
        }
    }

    @Test func headOnALiveConnectionHasNoBodyAndTheGetsLength() async throws {
        try await withLiveApp { _, port in
            let get = try await RawExchange.send(
                port: port, Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            let head = try await RawExchange.send(
                port: port, Array("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("content-length") == get.header("content-length"))
            #expect(head.header("content-length").flatMap { Int($0) } == get.body.utf8.count)
        }
    }

    /// A streamed download has no length: its `HEAD` says what the `GET` says (chunked), not
    /// `Content-Length: 0`, and sends no body, so the next request on the connection is answered
    /// in step.
    @Test func headOfAStreamedDownloadIsFramedAsItsGet() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let id = try await client.createRoute(token, Fixture.track(3)).requiredID()
            let path = "/v1/routes/\(id)/points?format=csv"
            let get = try await RawExchange.send(
                port: port,
                Array(
                    "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n"
                        .utf8))
            let head = try await RawExchange.send(
                port: port,
                Array(
                    ("HEAD \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n"
                        + "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").utf8))
            #expect(head.status == 200)
            #expect(head.header("content-length") == get.header("content-length"))
            #expect(head.header("transfer-encoding") == get.header("transfer-encoding"))
            #expect(head.header("content-type") == get.header("content-type"))
            #expect(head.rest.hasPrefix("HTTP/1.1 200"), "the HEAD sent a body: \(head.rest.prefix(80))")
        }
    }

    @Test func theHTTPLayersOwnErrorsHaveTheEnvelope() async throws {
        try await withLiveApp { _, port in
            let cases: [(String, [UInt8], Int, String)] = [
                (
                    "header",
                    Array(
                        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
                            .utf8),
                    431, "header_fields_too_large"
                ),
                (
                    "query",
                    Array(
                        "GET /healthz?q=\(String(repeating: "a", count: 1_000_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .utf8),
                    414, "uri_too_long"
                ),
                (
                    "path",
                    Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8),
                    414, "uri_too_long"
                ),
                ("garbage", Array("BLAH\u{01} / HTTP/1.1\r\n\r\n".utf8), 400, "invalid_request"),
                (
                    "bad header", Array("GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n".utf8), 400,
                    "invalid_request"
                ),
            ]
            for (what, bytes, status, code) in cases {
                let reply = try await RawExchange.send(port: port, bytes)
                #expect(reply.status == status, "\(what)")
                #expect(reply.header("x-content-type-options") == "nosniff", "\(what)")
                let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? JSONObject
                let error = object?["error"] as? JSONObject
                #expect(error?["code"] as? String == code, "\(what): \(reply.body.prefix(200))")
                let message = error?["message"] as? String ?? ""
                #expect(!message.isEmpty, "\(what)")
            }
        }
    }

    /// A parser error in the middle of a body (a chunk size that is not hex) reaches the handler
    /// reading it: a client's mistake, so `400` in the envelope, never `500`.
    @Test func aMalformedChunkedBodyIs400() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let request =
                "POST /v1/routes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\n{\"poi\r\nzz\r\nnts\r\n0\r\n\r\n"
            let reply = try await RawExchange.send(port: port, Array(request.utf8))
            #expect(reply.status == 400, "\(reply.head) \(reply.body)")
            #expect(reply.body.contains(#""code":"invalid_request""#), "\(reply.body)")
            #expect(try await client.routeTotal(token) == 0)
        }
    }

    // MARK: #16 control and bidi characters

    static let hostileNames = [
        "a\u{0}b", "bell\u{7}", "two\r\nlines", "evil\u{202E}gpj.exe", "iso\u{2066}late", "next\u{85}line", "del\u{7F}",
        "tab\tbed", "pop\u{202C}",
    ]

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [s])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    @Test(arguments: hostileNames)
    func namesAndTextsRefuseControlAndBidiCharacters(_ name: String) async throws {
        try await withApp { client in
            let q = Self.quoted(name)
            let token = try await client.register("ada")
            let route = try await client.createRoute(token, Fixture.track(3), recording: true).requiredID()
            let group = try #require(
                try await client.send(.post, "/v1/groups", token: token, json: #"{"name":"G","routes":["\#(route)"]}"#)
                    .json["id"] as? String)
            let device = try await client.createDevice(token, owner: "ada")
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let requests: [(HTTPRequest.Method, String, String?, String?)] = [
                (.post, "/v1/users", #"{"id":"eve","name":\#(q)}"#, nil),
                (.patch, "/v1/users/me", #"{"name":\#(q)}"#, token),
                (.post, "/v1/routes", #"{"name":\#(q),"points":[]}"#, token),
                (.patch, "/v1/routes/\(route)", #"{"name":\#(q)}"#, token),
                (.post, "/v1/groups", #"{"name":\#(q),"routes":["\#(route)"]}"#, token),
                (.patch, "/v1/groups/\(group)", #"{"name":\#(q)}"#, token),
                (
                    .post, "/v1/segments",
                    #"{"name":\#(q),"points":[{"lat":52.5,"lon":13.4},{"lat":52.6,"lon":13.5}]}"#, token
                ),
                (.post, "/v1/devices", #"{"name":\#(q)}"#, token),
                (.patch, "/v1/devices/\(device.id)", #"{"name":\#(q)}"#, token),
            ]
            for (method, path, body, auth) in requests {
                let response = try await client.send(method, path, token: auth, json: body)
                #expect(response.status == .badRequest, "\(method) \(path)")
                #expect((response.json["error"] as? JSONObject)?["field"] as? String == "name", "\(method) \(path)")
            }
            let streamed = try await client.send(
                .post, "/v1/routes?name=\(encoded)", token: token, json: Fixture.ndjson(Fixture.track(2)),
                contentType: "application/x-ndjson")
            #expect(
                streamed.status == .badRequest && (streamed.json["error"] as? JSONObject)?["field"] as? String == "name"
            )
            let annotated = try await client.append(
                token, route, #"{"annotations":[{"lat":52.5,"lon":13.4,"text":\#(q)}]}"#)
            #expect(annotated.status == .badRequest)
            let error = annotated.json["error"] as? JSONObject
            #expect(error?["field"] as? String == "annotations" && error?["key"] as? String == "text")
            // Nothing changed.
            #expect(try await client.routeTotal(token) == 1)
            let summary = try await client.summary(token, route)
            #expect(summary["name"] as? String == "Route")
            #expect((summary["annotations"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/users/me", token: token).json["name"] as? String == "ada")
            let groups = try await client.send(.get, "/v1/groups", token: token)
            #expect(SharingFixture.items(groups).count == 1)
            let devices = try await client.send(.get, "/v1/devices", token: token)
            #expect(SharingFixture.items(devices).count == 1)
        }
    }

    @Test func aFilesOwnNameAndTextsAreCleanedButTheQuerysNameIsRefused() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let gpx = #"""
                <gpx version="1.1"><wpt lat="1" lon="2"><desc>line one
                line two</desc></wpt><trk><name>evil&#x202E;gpj.exe&#9;</name><trkseg><trkpt lat="1" lon="2"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>
                """#
            let created = try client.expectCreated(
                try await client.send(.post, "/v1/routes", token: token, json: gpx, contentType: "application/gpx+xml"))
            #expect(created["name"] as? String == "evilgpj.exe")
            #expect((created["annotations"] as? [JSONObject])?.first?["text"] as? String == "line one line two")
            let unnamed =
                #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>2026-01-02T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#
            let refused = try await client.send(
                .post, "/v1/routes?name=evil%E2%80%AEgpj", token: token, json: unnamed,
                contentType: "application/gpx+xml")
            #expect(
                refused.status == .badRequest && (refused.json["error"] as? JSONObject)?["field"] as? String == "name")
            #expect(try await client.routeTotal(token) == 1)
        }
    }

    @Test func textRulesNameExactlyTheContractsCharacters() {
        let forbidden = Array(0x00...0x1F) + Array(0x7F...0x9F) + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in 0..<0x2100 {
            let scalar = Unicode.Scalar(UInt32(value))
            guard let scalar else { continue }
            #expect(TextRules.isForbidden(scalar) == forbidden.contains(value), "U+\(String(value, radix: 16))")
        }
        #expect(TextRules.cleaned("\u{202E}\u{2066}") == nil)
        #expect(TextRules.cleaned(" a\u{0}b\r\n") == "a b")
    }
}

/// One request written whole, then its answer read to the end of the connection (send
/// `Connection: close`, or let the server close). Status, head and body, de-chunked if need be.
enum RawExchange {
    static func send(port: Int, _ bytes: [UInt8]) async throws -> RawHTTP.Reply {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(port, bytes) }) }.start()
        }
    }

    private static func exchange(_ port: Int, _ bytes: [UInt8]) throws -> RawHTTP.Reply {
        let fd = try LoopbackSocket.connect(port: port, timeout: 20)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { break }  // the server may answer and stop reading early: read what it said
            offset += n
        }
        return try RawHTTP.parse(LoopbackSocket.readToEnd(fd))
    }
}
