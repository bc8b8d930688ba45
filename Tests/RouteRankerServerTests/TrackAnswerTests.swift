import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RouteRankerServer
import Testing

/// The tracker endpoints' answer rules (API.md, "Answers keep the phone's queue moving").
@Suite struct TrackAnswerTests {
    static let t0 = 1_764_000_000.0

    @Test func ownTracksAnswersAnEmptyJSONArrayAndCountsEveryKindOnce() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            let t0 = Self.t0
            let located = try await client.ownTracksPoint(device, lat: Walk.lat, lon: Walk.lon, tst: t0, acc: 5)
            #expect(located.status == .ok)
            #expect(located.text == "[]")
            #expect(located.headers[.contentType]?.hasPrefix("application/json") == true)
            // recorded, duplicate (resent), dropped (out of range; no time; inaccurate), ignored.
            for (body, status) in [
                (#"{"_type":"location","lat":52.52,"lon":13.405,"tst":\#(t0),"tid":"ph"}"#, 200),
                (#"{"_type":"location","lat":95,"lon":13.405,"tst":\#(t0 + 10)}"#, 200),
                (#"{"_type":"location","lat":52.52,"lon":13.405}"#, 200),
                (#"{"_type":"location","lat":52.52,"lon":13.4051,"tst":\#(t0 + 20),"acc":51}"#, 200),
                (#"{"_type":"transition","event":"enter","tst":\#(t0)}"#, 200),
                (#"{"_type":"waypoints","waypoints":[]}"#, 200),
                ("", 200),
            ] {
                let response = try await client.ownTracks(device, body)
                #expect(response.status.code == status, "\(body)")
                #expect(response.text == "[]")
            }
            let counts = try await client.counts(token, device.id)
            #expect(
                counts == ["received": 8, "recorded": 1, "duplicates": 1, "dropped": 3, "ignored": 3], "\(counts)")
            let seen = try await client.device(token, device.id)
            #expect(seen["last_seen_at"] is String)
            #expect(seen["current_route"] is String)
        }
    }

    @Test func refusalsAreOnlyWhatAPersonMustFixAndCountNothing() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            _ = try await client.register("bob")
            let device = try await client.createDevice(token, owner: "ada")
            // 401 with a Basic challenge: no credentials, a wrong key, another user's id, a bearer token.
            let none = try await client.execute(
                uri: "/v1/track/owntracks", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{}"))
            #expect(none.status == .unauthorized)
            #expect(none.headers[.wwwAuthenticate] == #"Basic realm="RouteRanker""#)
            var wrong = device
            wrong.key = String(device.key.dropLast()) + (device.key.hasSuffix("A") ? "B" : "A")
            #expect(try await client.ownTracks(wrong, "").status == .unauthorized)
            #expect(try await client.ownTracks(device, "", user: "bob").status == .unauthorized)
            #expect(
                try await client.send(.post, "/v1/track/owntracks", token: token, json: "{}").status == .unauthorized)
            // 400: not the protocol.
            for body in ["[]", "{}", "lat=1&lon=2", #"{"_type":"location",}"#] {
                let response = try await client.ownTracks(device, body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid_request")
            }
            // 422: encrypted.
            let encrypted = try await client.ownTracks(device, #"{"_type":"encrypted","data":"AAAA"}"#)
            #expect(encrypted.status == .unprocessableContent)
            #expect(encrypted.text.contains("encryption"))
            // 413 over 64 KiB; exactly 64 KiB is taken.
            let filler = { (size: Int) -> String in
                let head = #"{"_type":"status","pad":""#
                return head + String(repeating: "a", count: size - head.utf8.count - 2) + #""}"#
            }
            #expect(try await client.ownTracks(device, filler(65_537)).status == .contentTooLarge)
            let exact = try await client.ownTracks(device, filler(65_536))
            #expect(exact.status == .ok)
            #expect(
                try await client.counts(token, device.id) == [
                    "received": 1, "recorded": 0, "duplicates": 0, "dropped": 0, "ignored": 1,
                ])
        }
    }

    @Test func osmAndTakesTheQueryAFormBodyOrTraccarJSON() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            let key = device.key
            let t0 = Self.t0
            let lon1 = Walk.lon(metres: 10)
            // Legacy Traccar Client: everything in the query, POST with an empty body.
            let legacy = try await client.execute(
                uri: "/v1/track/osmand?id=\(key)&timestamp=\(Int(t0))&lat=\(Walk.lat)&lon=\(Walk.lon)&speed=0&batt=80",
                method: .post, headers: [:], body: nil)
            #expect(legacy.status == .ok)
            #expect(legacy.body.readableBytes == 0)
            // Traccar Client 10: a form body; the body wins over the query.
            let form = try await client.execute(
                uri: "/v1/track/osmand?lat=0&lon=0", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(
                    string: "id=\(key)&lat=\(Walk.lat)&lon=\(lon1)&timestamp=\(Int(t0 + 5))000&accuracy=5&altitude=40"))
            #expect(form.status == .ok)
            // GPSLogger: GET with `deviceid` and an RFC 3339 time.
            let lon2 = Walk.lon(metres: 20)
            let gpslogger = try await client.send(
                .get,
                "/v1/track/osmand?deviceid=\(key)&lat=\(Walk.lat)&lon=\(lon2)&timestamp=2025-11-24T16:00:10Z")
            #expect(gpslogger.status == .ok)
            // Traccar Client 9.x JSON.
            let lon3 = Walk.lon(metres: 30)
            let json = try await client.send(
                .post, "/v1/track/osmand",
                json:
                    #"{"device_id":"\#(key)","location":{"timestamp":"2025-11-24T16:00:15.500Z","coords":{"latitude":\#(Walk.lat),"longitude":\#(lon3),"accuracy":4}}}"#
            )
            #expect(json.status == .ok)
            // A heartbeat, a resend, an unusable point.
            #expect(try await client.send(.get, "/v1/track/osmand?id=\(key)&batt=50").status == .ok)
            #expect(
                try await client.send(
                    .get, "/v1/track/osmand?id=\(key)&lat=\(Walk.lat)&lon=\(lon2)&timestamp=\(Int(t0 + 10))"
                ).status == .ok)
            #expect(try await client.send(.get, "/v1/track/osmand?id=\(key)&lat=1&lon=2").status == .ok)
            #expect(
                try await client.counts(token, device.id) == [
                    "received": 7, "recorded": 4, "duplicates": 1, "dropped": 1, "ignored": 1,
                ])
            let route = try #require(try await client.device(token, device.id)["current_route"] as? String)
            let points = try await client.send(.get, "/v1/routes/\(route)/points", token: token)
            let stored = try #require(points.json["points"] as? [JSONObject])
            #expect(stored.compactMap { $0["t"] as? Double } == [t0, t0 + 5, t0 + 10, t0 + 15.5])
            #expect(stored[1]["ele"] as? Double == 40)
            #expect(stored[1]["acc"] as? Double == 5)
            // Refusals: no or unknown key 401, a body of another type 400, 413 over 64 KiB.
            let unknown = try await client.send(.get, "/v1/track/osmand?id=nope&lat=1&lon=2&timestamp=1764000000")
            #expect(unknown.status == .unauthorized)
            #expect(try await client.send(.get, "/v1/track/osmand?lat=1&lon=2").status == .unauthorized)
            let text = try await client.execute(
                uri: "/v1/track/osmand?id=\(key)", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: "1,2,3"))
            #expect(text.status == .badRequest)
            let badJSON = try await client.send(.post, "/v1/track/osmand?id=\(key)", json: "[1,]")
            #expect(badJSON.status == .badRequest)
            let big = try await client.execute(
                uri: "/v1/track/osmand?id=\(key)", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "pad=" + String(repeating: "a", count: 65_533)))
            #expect(big.status == .contentTooLarge)
            #expect(try await client.counts(token, device.id)["received"] == 7)
        }
    }

    @Test func aPointAcrossTwoYearsOfTimestampFormsIsOne() async throws {
        // Unix seconds, milliseconds and RFC 3339 for the same instant are one point, then duplicates.
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            for stamp in ["1764000000", "1764000000000", "2025-11-24T16:00:00Z", "2025-11-24T17:00:00%2B01:00"] {
                let response = try await client.send(
                    .get, "/v1/track/osmand?id=\(device.key)&lat=1&lon=2&timestamp=\(stamp)")
                #expect(response.status == .ok)
            }
            #expect(try await client.counts(token, device.id)["recorded"] == 1)
            #expect(try await client.counts(token, device.id)["duplicates"] == 3)
        }
    }
}
