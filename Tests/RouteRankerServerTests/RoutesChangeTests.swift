import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import RouteRankerCore
import Testing

extension RouteTests {
    /// ETags, finishing, `PATCH` and `DELETE`.
    @Suite struct RoutesChangeTests {
        func etag(_ client: any TestClientProtocol, _ token: String, _ id: String, ifNoneMatch: String? = nil)
            async throws -> (HTTPResponse.Status, String?)
        {
            var headers: HTTPFields = [:]
            if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
            let response = try await client.send(.get, "/v1/routes/\(id)/points", token: token, headers: headers)
            if response.status == .notModified { #expect(response.body.readableBytes == 0) }
            return (response.status, response.headers[.eTag])
        }

        @Test func ifNoneMatchGives304WithTheSameETagUntilTheRouteChanges() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(10)
                let id = try await client.createRoute(token, Array(points.prefix(5)), recording: true).requiredID()
                let (status, tag) = try await etag(client, token, id)
                #expect(status == .ok)
                let first = try #require(tag)
                #expect(first.hasPrefix("\"") && first.hasSuffix("\""))
                for header in [first, "\"other\", \(first)", "W/\(first)", "*", " \"a\" ,W/\(first) "] {
                    let (status, again) = try await etag(client, token, id, ifNoneMatch: header)
                    #expect(status == .notModified, "\(header)")
                    #expect(again == first, "\(header)")
                }
                #expect(try await etag(client, token, id, ifNoneMatch: "\"other\"").0 == .ok)
                // Another format is another representation: the JSON tag does not match the GPX download.
                let gpx = try await client.send(
                    .get, "/v1/routes/\(id)/points?format=gpx", token: token, headers: [.ifNoneMatch: first])
                #expect(gpx.status == .ok)
                #expect(gpx.headers[.eTag] != nil && gpx.headers[.eTag] != first)

                // Every change gives a new tag, and the old one no longer matches.
                var seen = [first]
                let changes: [(String, @Sendable () async throws -> TestResponse)] = [
                    ("append", { try await client.append(token, id, Fixture.jsonBody(Array(points.suffix(5)))) }),
                    (
                        "rename",
                        { try await client.send(.patch, "/v1/routes/\(id)", token: token, json: #"{"name":"R"}"#) }
                    ),
                    (
                        "activity",
                        {
                            try await client.send(
                                .patch, "/v1/routes/\(id)", token: token, json: #"{"activity":"run"}"#)
                        }
                    ),
                    ("finish", { try await client.send(.post, "/v1/routes/\(id)/finish", token: token) }),
                ]
                for (name, change) in changes {
                    #expect(try await change().status == .ok, "\(name)")
                    let (status, tag) = try await etag(client, token, id, ifNoneMatch: seen.last!)
                    #expect(status == .ok, "stale tag after \(name)")
                    let new = try #require(tag)
                    #expect(!seen.contains(new), "\(name)")
                    seen.append(new)
                    #expect(try await etag(client, token, id, ifNoneMatch: new).0 == .notModified)
                }
            }
        }

        @Test func finishClosesTheRouteOnceAndAppendsAreThen409() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(6)
                let id = try await client.createRoute(token, Array(points.prefix(3)), recording: true).requiredID()
                #expect(try await client.summary(token, id)["ended_at"] is NSNull)
                _ = try await client.appendPoints(token, id, Array(points.suffix(3)))

                let finished = try await client.send(.post, "/v1/routes/\(id)/finish", token: token)
                #expect(finished.status == .ok)
                #expect(finished.json["state"] as? String == "finished")
                #expect(finished.json["ended_at"] as? String == RFC3339.format(points[5].t))
                #expect(finished.json[object: "stats"][number: "points"] == 6)
                let again = try await client.send(.post, "/v1/routes/\(id)/finish", token: token)
                #expect(again.status == .ok)
                #expect(sameJSON(again.json, finished.json))
                #expect(sameJSON(try await client.summary(token, id), finished.json))

                let late = Fixture.after(points[5], metres: 5, seconds: 5)
                let refused = try await client.append(token, id, Fixture.jsonBody([late]))
                #expect(refused.status == .conflict)
                #expect(refused.errorCode == "conflict")
                #expect(try await client.points(token, id) == points)

                // A route created without `recording` is finished at once.
                let closed = try await client.createRoute(token, points).requiredID()
                let text = try await client.append(token, closed, Fixture.text([late]), contentType: "text/plain")
                #expect(text.status == .conflict)
            }
        }

        @Test func finishingAnEmptyRouteAndAppendingAnnotations() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let empty = try await client.createRoute(token, recording: true).requiredID()
                let finished = try await client.send(.post, "/v1/routes/\(empty)/finish", token: token)
                #expect(finished.status == .ok && finished.json["state"] as? String == "finished")
                #expect(finished.json["started_at"] is NSNull && finished.json["ended_at"] is NSNull)

                let id = try await client.createRoute(token, Fixture.track(2), recording: true).requiredID()
                let body = Fixture.jsonBody(
                    [Fixture.after(Fixture.track(2)[1], metres: 5, seconds: 5)],
                    #""annotations":[{"lat":52.5,"lon":13.4,"t":1700000001,"text":"gate"}]"#)
                let appended = try await client.append(token, id, body)
                #expect(appended.status == .ok && appended.json[number: "accepted"] == 1)
                let notes = try await client.summary(token, id)["annotations"] as? [JSONObject]
                #expect(notes?.map { $0["text"] as? String } == ["gate"])
            }
        }

        @Test func patchRenamesAndRecomputesTheStatsForANewActivity() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                // Slow (0.2–0.5 m/s: moving for walk, not for run), then brisk.
                let slow = Fixture.track(20, interval: 10, speed: 0.35)
                let brisk = Fixture.track(
                    20, from: Fixture.after(slow[19], metres: 10, seconds: 0).coordinate, t0: slow[19].t + 5)
                let points = slow + brisk
                let walk = try await client.createRoute(token, points, name: "Walk", activity: "walk", recording: true)
                let id = try walk.requiredID()
                let run = try await client.createRoute(token, points, name: "Run", activity: "run")

                let renamed = try await client.send(
                    .patch, "/v1/routes/\(id)", token: token, json: #"{"name":"Renamed"}"#)
                #expect(renamed.status == .ok)
                #expect(renamed.json["name"] as? String == "Renamed")
                #expect(sameJSON(renamed.json["stats"], walk["stats"]))

                let changed = try await client.send(
                    .patch, "/v1/routes/\(id)", token: token, json: #"{"activity":"run"}"#)
                #expect(changed.status == .ok)
                #expect(changed.json["activity"] as? String == "run")
                #expect(changed.json["name"] as? String == "Renamed")
                let stats = changed.json[object: "stats"]
                #expect(stats[object: "params"][number: "max_speed_mps"] == 12)
                #expect(stats[object: "params"][number: "moving_threshold_mps"] == 0.5)
                #expect(stats[number: "moving_time_s"]! < walk[object: "stats"][number: "moving_time_s"]!)
                #expect(stats[number: "distance_m"] == walk[object: "stats"][number: "distance_m"])
                #expect(sameJSON(stats, run["stats"]), "after PATCH: \(stats)\nuploaded as run: \(run["stats"]!)")
                #expect(sameJSON(try await client.summary(token, id), changed.json))

                // Later appends use the new maximum speed: 10 m/s is a spike for walk, not for run.
                let fast = Fixture.after(points.last!, metres: 100, seconds: 10)
                #expect(try await client.appendPoints(token, id, [fast])[number: "accepted"] == 1)

                for bad in [#"{"activity":"WALK"}"#, #"{"activity":"jog"}"#, #"{"name":""}"#, #"{"name":5}"#, "[]"] {
                    let response = try await client.send(.patch, "/v1/routes/\(id)", token: token, json: bad)
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.errorCode == "invalid_request")
                }
                let unchanged = try await client.summary(token, id)
                #expect(unchanged["name"] as? String == "Renamed" && unchanged["activity"] as? String == "run")
                #expect(unchanged[object: "stats"][number: "points"] == 41)
                let typeless = try await client.send(
                    .patch, "/v1/routes/\(id)", token: token, json: "{}", contentType: nil)
                #expect(typeless.status == .unsupportedMediaType)
            }
        }

        @Test func deleteRemovesTheRouteAndItsBuckets() async throws {
            try await withAppAndDatabase { client, database in
                let token = try await client.register("ada")
                let id = try await client.createStreamed(token, Fixture.track(2500)).requiredID()
                let other = try await client.createRoute(token, Fixture.track(5)).requiredID()
                let buckets = database.collection("points")
                let stored = try await buckets.find(["route": .string(id)], sort: ["seq": 1], limit: 0)
                // Two full buckets in `points`; the last 500 points are the route document's open tail.
                #expect(stored.map { $0.int("seq") } == [0, 1])
                #expect(stored.map { $0.array("t")?.count } == [1000, 1000])
                let route = try await database.collection("routes").findOne(["_id": .string(id)])
                #expect(route?.document("tail")?.binary("t")?.count == 500 * 8)

                let deleted = try await client.send(.delete, "/v1/routes/\(id)", token: token)
                #expect(deleted.status == .noContent)
                #expect(deleted.body.readableBytes == 0)
                let gone = try await client.send(.get, "/v1/routes/\(id)", token: token)
                #expect(gone.status == .notFound && gone.errorCode == "not_found")
                let requests: [(HTTPRequest.Method, String, String?)] = [
                    (.get, "/v1/routes/\(id)/points", nil), (.get, "/v1/routes/\(id)/points?format=gpx", nil),
                    (.post, "/v1/routes/\(id)/points", Fixture.jsonBody(Fixture.track(1))),
                    (.post, "/v1/routes/\(id)/finish", nil), (.patch, "/v1/routes/\(id)", #"{"name":"x"}"#),
                    (.delete, "/v1/routes/\(id)", nil),
                ]
                for (method, path, body) in requests {
                    let response = try await client.send(method, path, token: token, json: body)
                    #expect(response.status == .notFound, "\(method) \(path)")
                    #expect(response.text == gone.text, "\(method) \(path)")
                }
                #expect(try await buckets.count(["route": .string(id)]) == 0)
                #expect(try await client.routeTotal(token) == 1)
                #expect(try await client.points(token, other).count == 5)
            }
        }
    }
}
