import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

extension RouteTests {
    /// Creating routes in every upload format, and what the summary says about them.
    @Suite struct RoutesCreateTests {
        @Test func jsonCreateAnswersTheSummaryThatGetGives() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                var points = Fixture.track(40)
                points[3].acc = 4.5
                let body = Fixture.jsonBody(
                    points, #""name":"Lunch walk""#, #""activity":"walk""#, #""unknown":{"x":1}"#,
                    #""annotations":[{"lat":52.5,"lon":13.4,"t":1700000010,"text":"bench"},{"lat":52.6,"lon":13.5,"text":"lake"}]"#
                )
                let created = try await client.send(.post, "/v1/routes", token: token, json: body)
                #expect(created.status == .created)
                let summary = created.json
                let id = try #require(summary["id"] as? String)
                #expect(summary["owner"] as? String == "ada")
                #expect(summary["name"] as? String == "Lunch walk")
                #expect(summary["activity"] as? String == "walk")
                #expect(summary["state"] as? String == "finished")
                #expect(summary["shared_with"] as? [String] == [])
                #expect(summary["accepted"] == nil)
                #expect(
                    (summary["created_at"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
                #expect(summary["started_at"] as? String == "2023-11-14T22:13:20.000Z")
                #expect(summary["ended_at"] as? String == RFC3339.format(points.last!.t))
                let notes = try #require(summary["annotations"] as? [JSONObject])
                #expect(notes.map { $0["text"] as? String } == ["bench", "lake"])
                #expect(notes.last?["t"] is NSNull)

                let stats = summary[object: "stats"]
                #expect(stats[number: "points"] == 40)
                #expect(abs(stats[number: "distance_m"]! - Fixture.length(points)) < 1e-6)
                #expect(stats[number: "duration_s"] == 195.0)
                let start = stats[object: "start"]
                #expect(start[number: "lat"] == points[0].lat && start[number: "t"] == points[0].t)
                #expect(stats[object: "end"][number: "t"] == points[39].t)
                let bbox = try #require(stats["bbox"] as? [Any]).compactMap(number)
                #expect(bbox == [points[0].lon, points[0].lat, points[39].lon, points[39].lat])
                let params = stats[object: "params"]
                #expect(params[number: "max_speed_mps"] == 7 && params[number: "moving_threshold_mps"] == 0.2)
                #expect(params[number: "elevation_hysteresis_m"] == 5)
                #expect(stats[number: "elevation_gain_m"] != nil)

                let fetched = try await client.summary(token, id)
                #expect(sameJSON(fetched, summary), "GET: \(fetched)\ncreate: \(summary)")
                #expect(try await client.points(token, id) == points)
            }
        }

        @Test func defaultsAndTheEmptyRoute() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let created = try await client.send(.post, "/v1/routes", token: token, json: #"{"recording":true}"#)
                #expect(created.status == .created)
                let summary = created.json
                #expect(summary["name"] as? String == "Untitled")
                #expect(summary["activity"] as? String == "other")
                #expect(summary["state"] as? String == "recording")
                #expect(summary["started_at"] is NSNull && summary["ended_at"] is NSNull)
                #expect(summary["annotations"] as? [Any] != nil)
                let stats = summary[object: "stats"]
                for key in ["points", "distance_m", "duration_s", "moving_time_s", "avg_speed_mps", "max_speed_mps"] {
                    #expect(stats[number: key] == 0, "\(key)")
                }
                for key in ["avg_pace_s_per_km", "elevation_gain_m", "elevation_loss_m", "bbox", "start", "end"] {
                    #expect(stats[key] is NSNull, "\(key)")
                }
                #expect((stats["splits"] as? [Any])?.isEmpty == true)
                #expect(stats[object: "params"][number: "max_speed_mps"] == 70)
                #expect(stats[object: "params"][number: "moving_threshold_mps"] == 0.3)
            }
        }

        @Test func ndjsonCreateTakesRouteFieldsFromTheQuery() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(25, ele: false)
                let summary = try await client.createStreamed(
                    token, points, query: "name=Morning%20ride&activity=ride&recording=true")
                #expect(summary["name"] as? String == "Morning ride")
                #expect(summary["activity"] as? String == "ride")
                #expect(summary["state"] as? String == "recording")
                #expect(summary["ended_at"] is NSNull)
                #expect(summary[object: "stats"][number: "points"] == 25)
                #expect(summary[object: "stats"]["elevation_gain_m"] is NSNull)
                #expect(try await client.points(token, summary.requiredID()) == points)

                let crlf = points.map(Fixture.json).joined(separator: "\r\n")  // and no final newline
                let windows = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes", token: token, json: crlf, contentType: "application/x-ndjson"))
                #expect(try await client.points(token, windows.requiredID()) == points)
            }
        }

        @Test func phoneTextIgnoresWhitespaceAndATrailingHash() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let body =
                    " 52.5 , 13.4 ,1700000000, 34.5 #\n\t52.5001,13.4001 , 1700000005.25#\r\n52.5002,13.4002,1700000010,-3 # \n"
                let created = try await client.send(
                    .post, "/v1/routes?name=Phone&activity=walk", token: token, json: body, contentType: "text/plain")
                let summary = try client.expectCreated(created)
                #expect(summary["name"] as? String == "Phone")
                #expect(summary["activity"] as? String == "walk")
                let points = try await client.points(token, summary.requiredID())
                #expect(
                    points == [
                        TrackPoint(lat: 52.5, lon: 13.4, t: 1_700_000_000, ele: 34.5),
                        TrackPoint(lat: 52.5001, lon: 13.4001, t: 1_700_000_005.25),
                        TrackPoint(lat: 52.5002, lon: 13.4002, t: 1_700_000_010, ele: -3),
                    ])
            }
        }

        static let gpx11 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><name>Metadata name</name></metadata>
              <wpt lat="52.51" lon="13.41"><time>2023-11-14T22:13:30Z</time><name>Cafe</name><desc>no</desc></wpt>
              <wpt lat="52.52" lon="13.42"><desc>Viewpoint</desc><cmt>no</cmt></wpt>
              <wpt lat="52.53" lon="13.43"><cmt>Fountain</cmt></wpt>
              <trk><name>Track &amp; field</name>
                <trkseg>
                  <trkpt lat="52.5003" lon="13.4003"><ele>41.5</ele><time>2023-11-14T22:13:35.5Z</time></trkpt>
                  <trkpt lat="52.5004" lon="13.4004"><time>2023-11-14T22:13:40</time></trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="52.5" lon="13.4"><ele>40</ele><time>2023-11-14T22:13:20.125Z</time></trkpt>
                  <trkpt lat="52.5001" lon="13.4001"><ele>40.5</ele><time>2023-11-14T23:13:25+01:00</time></trkpt>
                </trkseg>
              </trk>
            </gpx>
            """

        @Test func gpx11CreateReadsEveryTrackPointWaypointsAndTheTrackName() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let created = try await client.send(
                    .post, "/v1/routes?activity=run&name=Ignored", token: token, json: Self.gpx11,
                    contentType: "application/gpx+xml")
                let summary = try client.expectCreated(created)
                #expect(summary["name"] as? String == "Track & field")
                #expect(summary["activity"] as? String == "run")
                #expect(summary["state"] as? String == "finished")
                let notes = try #require(summary["annotations"] as? [JSONObject])
                #expect(notes.map { $0["text"] as? String } == ["Cafe", "Viewpoint", "Fountain"])
                #expect(notes.map { $0[number: "t"] } == [1_700_000_010, nil, nil])
                #expect(notes.first?[number: "lat"] == 52.51)
                // Both segments, sorted by time; a time without a zone is UTC.
                let metadataOnly = Self.gpx11.replacingOccurrences(of: "<name>Track &amp; field</name>", with: "")
                let named = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes", token: token, json: metadataOnly, contentType: "application/gpx+xml"))
                #expect(named["name"] as? String == "Metadata name")
                #expect(named["activity"] as? String == "other")
                let points = try await client.points(token, summary.requiredID())
                #expect(
                    points == [
                        TrackPoint(lat: 52.5, lon: 13.4, t: 1_700_000_000.125, ele: 40),
                        TrackPoint(lat: 52.5001, lon: 13.4001, t: 1_700_000_005, ele: 40.5),
                        TrackPoint(lat: 52.5003, lon: 13.4003, t: 1_700_000_015.5, ele: 41.5),
                        TrackPoint(lat: 52.5004, lon: 13.4004, t: 1_700_000_020),
                    ])
            }
        }

        @Test func gpx10RoutePointsAndItsNameOrTheQueryName() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let gpx10 = """
                    <?xml version="1.0"?>
                    <gpx version="1.0" creator="old" xmlns="http://www.topografix.com/GPX/1/0">
                    <name>Old style</name>
                    <rte><rtept lat="52.5" lon="13.4"><time>2023-11-14T22:13:20Z</time></rtept>
                    <rtept lat="52.5001" lon="13.4001"><time>2023-11-14T22:13:25Z</time></rtept></rte>
                    </gpx>
                    """
                let old = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes?name=Query", token: token, json: gpx10, contentType: "application/gpx+xml"))
                #expect(old["name"] as? String == "Old style")
                #expect(old[object: "stats"][number: "points"] == 2)

                let unnamed = gpx10.replacingOccurrences(of: "<name>Old style</name>", with: "")
                let queried = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes?name=Query", token: token, json: unnamed, contentType: "application/gpx+xml")
                )
                #expect(queried["name"] as? String == "Query")
                let plain = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes", token: token, json: unnamed, contentType: "application/gpx+xml"))
                #expect(plain["name"] as? String == "Untitled")
            }
        }

        @Test func contentTypeParametersAndCaseAreAccepted() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(3)
                let response = try await client.send(
                    .post, "/v1/routes", token: token, json: Fixture.jsonBody(points),
                    contentType: "Application/JSON; charset=utf-8")
                #expect(response.status == .created)
                #expect(try await client.routeTotal(token) == 1)
            }
        }
    }
}
