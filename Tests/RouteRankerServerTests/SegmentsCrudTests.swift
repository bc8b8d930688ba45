import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// API.md "Segments and leaderboards": creating, reading, listing and deleting segments.
@Suite struct SegmentsCrudTests {
    typealias F = SegmentFixture

    @Test func aSegmentFromPointsIsReadableByAnyoneListedForItsOwnerAndNearItsStart() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let id = try await client.newSegment(me, name: "Bridge")

            let got = try await client.send(.get, "/v1/segments/\(id)", token: other)
            #expect(got.status == .ok)
            let segment = got.json
            #expect(
                Set(segment.keys) == [
                    "id", "name", "owner", "length_m", "start", "end", "bbox", "points", "created_at",
                ])
            #expect(segment["name"] as? String == "Bridge")
            #expect(segment["owner"] as? String == "me")
            let length = try #require(segment[number: "length_m"])
            #expect(abs(length - 400) < 1e-6)
            let points = segment["points"] as? [JSONObject] ?? []
            #expect(points.count == 101)
            #expect(points.first?[number: "lat"] == F.segmentPoints[0].lat)
            #expect(segment[object: "start"][number: "lon"] == F.segmentPoints[0].lon)
            #expect(segment[object: "end"][number: "lon"] == F.segmentPoints[100].lon)
            let bbox = (segment["bbox"] as? [Any] ?? []).compactMap(number)
            let lats = F.segmentPoints.map(\.lat)
            let lons = F.segmentPoints.map(\.lon)
            #expect(bbox == [lons.min()!, lats.min()!, lons.max()!, lats.max()!])

            let mine = try await client.send(.get, "/v1/segments", token: me)
            #expect(F.items(mine).map { $0["id"] as? String } == [id])
            #expect(mine.json["total"] as? Int == 1)
            #expect(F.items(try await client.send(.get, "/v1/segments", token: other)).isEmpty)

            let start = F.segmentPoints[0]
            let near = try await client.send(.get, "/v1/segments?near=\(start.lat),\(start.lon)", token: other)
            #expect(F.items(near).map { $0["id"] as? String } == [id])
            #expect(F.items(near).first?[number: "distance_from_m"] == 0)
            let away = Geodesic.direct(from: start, azimuth: 0, distance: 1500)
            let far = try await client.send(.get, "/v1/segments?near=\(away.lat),\(away.lon)", token: me)
            #expect(F.items(far).isEmpty)
            let wide = try await client.send(
                .get, "/v1/segments?near=\(away.lat),\(away.lon)&radius_m=2000", token: me)
            let distance = try #require(F.items(wide).first?[number: "distance_from_m"])
            #expect(abs(distance - 1500) < 0.01)
            let tooWide = try await client.send(.get, "/v1/segments?near=1,2&radius_m=50001", token: me)
            #expect(tooWide.status == .badRequest)
            #expect((try await client.send(.get, "/v1/segments?radius_m=10", token: me)).status == .badRequest)
        }
    }

    @Test func onlyTheOwnerDeletesAndAnUnknownSegmentIs404() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let id = try await client.newSegment(me)
            #expect(try await client.send(.delete, "/v1/segments/\(id)", token: other).status == .forbidden)
            #expect(try await client.send(.delete, "/v1/segments/\(id)", token: me).status == .noContent)
            let gone = try await client.send(.get, "/v1/segments/\(id)", token: me)
            #expect(gone.status == .notFound)
            #expect(gone.errorCode == "not_found")
            #expect(try await client.leaderboard(me, id).status == .notFound)
            #expect(try await client.send(.get, "/v1/segments/nonsense", token: me).status == .notFound)
            #expect(try await client.send(.get, "/v1/segments/\(id)").status == .unauthorized)
        }
    }

    @Test func aSegmentFromARouteTakesThePointsAsTheCallerDownloadsThem() async throws {
        try await withApp { client in
            let me = try await client.register("me", friends: ["friend"])
            let friend = try await client.register("friend")
            let stranger = try await client.register("stranger")
            let route = try await client.newTrack(me, F.straight)
            _ = try await client.shareRoute(me, route, to: "friend")

            let body = #"{"name":"Part","route":"\#(route)","from":25,"to":125}"#
            let created = try await client.send(.post, "/v1/segments", token: friend, json: body)
            #expect(created.status == .created)
            let points = (created.json["points"] as? [JSONObject] ?? []).map {
                Coordinate(lat: $0[number: "lat"] ?? 0, lon: $0[number: "lon"] ?? 0)
            }
            #expect(points == F.segmentPoints)
            #expect(created.json["owner"] as? String == "friend")

            let hidden = try await client.send(.post, "/v1/segments", token: stranger, json: body)
            #expect(hidden.status == .unprocessableContent)
            let pastEnd = #"{"name":"Part","route":"\#(route)","from":25,"to":151}"#
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: pastEnd).status == .unprocessableContent)
            let backwards = #"{"route":"\#(route)","from":30,"to":30}"#
            #expect(try await client.send(.post, "/v1/segments", token: me, json: backwards).status == .badRequest)
            let short = #"{"route":"\#(route)","from":0,"to":10}"#  // 40 m
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: short).status == .unprocessableContent)
        }
    }

    @Test func badSegmentBodiesAreRefused() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let one = F.pointsJSON([F.origin])
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: #"{"points":\#(one)}"#).status
                    == .badRequest)
            var points = F.segmentPoints
            points[3].lat = 91
            let bad = try await client.send(
                .post, "/v1/segments", token: me, json: #"{"points":\#(F.pointsJSON(points))}"#)
            #expect(bad.status == .badRequest)
            #expect((bad.json["error"] as? JSONObject)?["index"] as? Int == 3)
            let far = F.pointsJSON([F.origin, Coordinate(lat: F.origin.lat + 1, lon: F.origin.lon)])  // 111 km
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: #"{"points":\#(far)}"#).status
                    == .unprocessableContent)
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: #"{"name":"x"}"#).status == .badRequest)
            let both = #"{"route":"x","from":0,"to":1,"points":\#(F.pointsJSON(F.segmentPoints))}"#
            #expect(try await client.send(.post, "/v1/segments", token: me, json: both).status == .badRequest)
            #expect(
                try await client.send(.post, "/v1/segments", token: me, json: "{}", contentType: "text/plain").status
                    == .unsupportedMediaType)
            // Nothing of those was stored.
            #expect(F.items(try await client.send(.get, "/v1/segments", token: me)).isEmpty)
        }
    }
}
