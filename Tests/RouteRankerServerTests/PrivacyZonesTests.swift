import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// Privacy zones (API.md "Privacy zones" and "Details … Access"): everyone but the owner gets the
/// route without the points inside them.
@Suite struct PrivacyZonesTests {
    /// 30 points 100 m apart; the zones hide points 0–3 (around the start) and 28–29 (around the end).
    static let line = SharingFixture.line()
    static let zones = [
        PrivacyZone(lat: line[0].lat, lon: line[0].lon, radiusM: 350),
        PrivacyZone(lat: line[29].lat, lon: line[29].lon, radiusM: 150),
    ]
    static let zonesJSON =
        "[" + zones.map { #"{"lat":\#($0.lat),"lon":\#($0.lon),"radius_m":\#($0.radiusM)}"# }.joined(separator: ",")
        + "]"
    static let visible = Array(line[4...27]).map(\.coordinate)
    static let annotations =
        #"[{"lat":\#(line[1].lat),"lon":\#(line[1].lon),"t":null,"text":"Home gate"},"#
        + #"{"lat":\#(line[15].lat),"lon":\#(line[15].lon),"t":null,"text":"Bakery"}]"#

    /// Olga's route with the zones, shared with Fran, and a link to it.
    struct Scene {
        let olga: String
        let fran: String
        let route: String
        let secret: String
    }

    static func scene(_ client: some TestClientProtocol, zones: Bool = true) async throws -> Scene {
        let olga = try await client.register("olga", friends: ["fran"])
        let fran = try await client.register("fran")
        let route = try await client.newSharedRoute(olga, annotations: annotations)
        #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
        let link = try await client.newLink(olga, route)
        if zones { #expect(try await client.putZones(olga, zonesJSON).status == .ok) }
        return Scene(olga: olga, fran: fran, route: route, secret: link.secret)
    }

    static func hidden(_ c: Coordinate) -> Bool {
        zones.contains { Geodesic.distance(from: c, to: $0.center) <= $0.radiusM }
    }

    @Test func putAndGetRoundTripABareArray() async throws {
        try await withAccountRouter { client, _ in
            let olga = try await client.register("olga")
            let empty = try await client.send(.get, "/v1/users/me/privacy_zones", token: olga)
            #expect(empty.status == .ok)
            #expect(empty.text == "[]")
            let put = try await client.putZones(olga, Self.zonesJSON)
            #expect(put.status == .ok)
            let got = try await client.send(.get, "/v1/users/me/privacy_zones", token: olga)
            for response in [put, got] {
                let array = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [JSONObject])
                #expect(array.count == 2)
                for (zone, expected) in zip(array, Self.zones) {
                    #expect(Set(zone.keys) == ["lat", "lon", "radius_m"])
                    #expect(abs((SharingFixture.double(zone["lat"]) ?? 0) - expected.lat) < 1e-12)
                    #expect(abs((SharingFixture.double(zone["lon"]) ?? 0) - expected.lon) < 1e-12)
                    #expect(SharingFixture.double(zone["radius_m"]) == expected.radiusM)
                }
            }
        }
    }

    @Test func invalidZonesAre400AndChangeNothing() async throws {
        try await withAccountRouter { client, _ in
            let olga = try await client.register("olga")
            #expect(try await client.putZones(olga, Self.zonesJSON).status == .ok)
            let before = try await client.send(.get, "/v1/users/me/privacy_zones", token: olga).text
            let zone = { (lat: String, lon: String, radius: String) in
                #"{"lat":\#(lat),"lon":\#(lon),"radius_m":\#(radius)}"#
            }
            let eleven = "[" + Array(repeating: zone("48", "11", "500"), count: 11).joined(separator: ",") + "]"
            let bad = [
                eleven, "[\(zone("48", "11", "99"))]", "[\(zone("48", "11", "2001"))]", "[\(zone("91", "11", "500"))]",
                "[\(zone("48", "181", "500"))]", "[\(zone(#""48""#, "11", "500"))]", "[\(zone("48", "11", "true"))]",
                #"[{"lat":48,"lon":11}]"#, #"{"zones":[]}"#, "null", "[1]", "[\(zone("48", "11", "500")),5]",
            ]
            for body in bad {
                let response = try await client.putZones(olga, body)
                #expect(response.status == .badRequest, "\(body.prefix(60))")
                #expect(response.errorCode == "invalid_request", "\(body.prefix(60))")
                #expect(try await client.send(.get, "/v1/users/me/privacy_zones", token: olga).text == before)
            }
            let ten = "[" + Array(repeating: zone("48", "11", "100"), count: 9).joined(separator: ",")
            #expect(try await client.putZones(olga, ten + ",\(zone("-90", "-180", "2000"))]").status == .ok)
            #expect(try await client.putZones(olga, "[]").status == .ok)
            #expect(try await client.send(.get, "/v1/users/me/privacy_zones", token: olga).text == "[]")
        }
    }

    @Test func pointsInsideAZoneAreAbsentFromEveryFormatForOthersOnly() async throws {
        try await withApp { client in
            let scene = try await Self.scene(client)
            let readers: [(String, String, String?)] = [
                ("owner", "/v1/routes/\(scene.route)/points", scene.olga),
                ("friend", "/v1/routes/\(scene.route)/points", scene.fran),
                ("link", "/v1/links/\(scene.secret)/points", nil),
            ]
            for (who, path, token) in readers {
                for format in SharingFixture.formats {
                    let response = try await client.send(.get, "\(path)?format=\(format)", token: token)
                    #expect(response.status == .ok, "\(who) \(format)")
                    let seen = try SharingFixture.coordinates(response.text, format: format)
                    if who == "owner" {
                        #expect(seen.count == 30, "\(format)")
                        #expect(seen.contains { Self.hidden($0) }, "\(format)")
                    } else {
                        #expect(seen.count == Self.visible.count, "\(who) \(format)")
                        #expect(!seen.contains { Self.hidden($0) }, "\(who) \(format)")
                        #expect(zip(seen, Self.visible).allSatisfy { SharingFixture.same($0, $1) }, "\(who) \(format)")
                    }
                    if format == "gpx" { #expect(response.text.contains("Home gate") == (who == "owner"), "\(who)") }
                }
            }
        }
    }

    @Test func othersSeeStartEndAndBboxOfTheVisiblePointsAndNoHiddenAnnotation() async throws {
        try await withApp { client in
            let scene = try await Self.scene(client)
            let owner = try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.olga)
            let ownerStats = try #require(owner.json["stats"] as? JSONObject)
            #expect(
                SharingFixture.endpoint(ownerStats["start"]).map { SharingFixture.same($0, Self.line[0].coordinate) }
                    == true)
            #expect((owner.json["annotations"] as? [JSONObject])?.count == 2)
            #expect(SharingFixture.date(owner.json["started_at"]) == Date(timeIntervalSince1970: SharingFixture.t0))

            let friend = try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.fran)
            let linked = try await client.send(.get, "/v1/links/\(scene.secret)")
            let inbox = try await client.send(.get, "/v1/shares", token: scene.fran)
            let inboxStats = SharingFixture.items(inbox).first?["stats"] as? JSONObject
            for (who, stats) in [
                ("friend", friend.json["stats"]), ("link", linked.json["stats"]), ("inbox", inboxStats),
            ] {
                let stats = try #require(stats as? JSONObject, "\(who)")
                let start = SharingFixture.endpoint(stats["start"])
                let end = SharingFixture.endpoint(stats["end"])
                #expect(start.map { SharingFixture.same($0, Self.visible[0]) } == true, "\(who)")
                #expect(end.map { SharingFixture.same($0, Self.visible[Self.visible.count - 1]) } == true, "\(who)")
                let bbox = (stats["bbox"] as? [Any] ?? []).compactMap(SharingFixture.double)
                let expected = SharingFixture.bbox(Self.visible)
                #expect(bbox.count == 4 && zip(bbox, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(who): \(bbox)")
                for key in ["distance_m", "points", "duration_s", "moving_time_s", "elevation_gain_m"] {
                    #expect(
                        SharingFixture.double(stats[key]) == SharingFixture.double(ownerStats[key]), "\(who): \(key)")
                }
            }
            for response in [friend, linked] {
                let texts = (response.json["annotations"] as? [JSONObject])?.compactMap { $0["text"] as? String }
                #expect(texts == ["Bakery"])
                // Zones do not change the times.
                #expect(response.json["started_at"] as? String == owner.json["started_at"] as? String)
                #expect(response.json["ended_at"] as? String == owner.json["ended_at"] as? String)
            }
            let ownerAgain = try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.olga)
            #expect(ownerAgain.json["started_at"] as? String == owner.json["started_at"] as? String)
        }
    }

    @Test func aZoneChangeAppliesToTheNextReadAndChangesTheETag() async throws {
        try await withApp { client in
            let scene = try await Self.scene(client, zones: false)
            let path = "/v1/routes/\(scene.route)/points?format=csv"
            let before = try await client.send(.get, path, token: scene.fran)
            #expect(try SharingFixture.coordinates(before.text, format: "csv").count == 30)
            let firstTag = try #require(before.headers[.eTag])

            #expect(try await client.putZones(scene.olga, Self.zonesJSON).status == .ok)
            let stale = try await client.send(.get, path, token: scene.fran, headers: [.ifNoneMatch: firstTag])
            #expect(stale.status == .ok)
            #expect(try SharingFixture.coordinates(stale.text, format: "csv").count == Self.visible.count)
            let zonedTag = try #require(stale.headers[.eTag])
            #expect(zonedTag != firstTag)
            let fresh = try await client.send(.get, path, token: scene.fran, headers: [.ifNoneMatch: zonedTag])
            #expect(fresh.status == .notModified)
            let summary = try await client.send(.get, "/v1/routes/\(scene.route)", token: scene.fran)
            let start = SharingFixture.endpoint((summary.json["stats"] as? JSONObject)?["start"])
            #expect(start.map { SharingFixture.same($0, Self.visible[0]) } == true)

            #expect(try await client.putZones(scene.olga, "[]").status == .ok)
            let cleared = try await client.send(.get, path, token: scene.fran, headers: [.ifNoneMatch: zonedTag])
            #expect(cleared.status == .ok)
            #expect(try SharingFixture.coordinates(cleared.text, format: "csv").count == 30)
            let linked = try await client.send(.get, "/v1/links/\(scene.secret)")
            let linkStart = SharingFixture.endpoint((linked.json["stats"] as? JSONObject)?["start"])
            #expect(linkStart.map { SharingFixture.same($0, Self.line[0].coordinate) } == true)
        }
    }

    @Test func nearSearchUsesTheStartOthersCanSee() async throws {
        try await withApp { client in
            let scene = try await Self.scene(client)
            func near(_ c: Coordinate, _ radius: Int, _ token: String) async throws -> [JSONObject] {
                let response = try await client.send(
                    .get, "/v1/routes?near=\(c.lat),\(c.lon)&radius_m=\(radius)", token: token)
                #expect(response.status == .ok)
                return SharingFixture.items(response).filter { $0["id"] as? String == scene.route }
            }
            let origin = Self.line[0].coordinate
            #expect(try await near(origin, 200, scene.olga).count == 1)
            #expect(try await near(origin, 200, scene.fran).isEmpty)
            let far = try #require(try await near(origin, 420, scene.fran).first)
            #expect(abs((SharingFixture.double(far["distance_from_m"]) ?? 0) - 400) < 1)
            let atVisibleStart = try #require(try await near(Self.visible[0], 50, scene.fran).first)
            #expect((SharingFixture.double(atVisibleStart["distance_from_m"]) ?? 99) < 1)
        }
    }
}

extension PrivacyZone {
    fileprivate var center: Coordinate { Coordinate(lat: lat, lon: lon) }
}
