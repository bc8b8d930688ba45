import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// One malformed request and what the contract says about it.
struct BadUpload: Sendable, CustomStringConvertible {
    var label: String
    var contentType: String?
    var body: String
    var status: HTTPResponse.Status = .badRequest
    var field: String? = "points"
    var index: Int?
    var key: String?
    var query = ""

    var description: String { label }
}
extension RouteTests {
    /// Every bad upload gets its 4xx with `field`/`index`/`key`, and nothing of it is stored.
    @Suite struct RoutesBadInputTests {
        static let good = #"{"lat":52.5,"lon":13.4,"t":1700000000}"#
        static let good2 = #"{"lat":52.5001,"lon":13.4001,"t":1700000005}"#

        /// Bad points, as the elements of a JSON `points` array (the bad one last, at `index`).
        static let badJSONPoints: [(String, [String], Int, String?)] = [
            ("lat 91", [good2, good, #"{"lat":91,"lon":13.4,"t":1500000000}"#], 2, "lat"),
            ("lon -181", [good, #"{"lat":52,"lon":-181,"t":1700000010}"#], 1, "lon"),
            ("t 0", [#"{"lat":52,"lon":13,"t":0}"#], 0, "t"),
            ("t after 9999", [good, #"{"lat":52,"lon":13,"t":253402300800}"#], 1, "t"),
            ("lat string", [good, #"{"lat":"52","lon":13,"t":1700000010}"#], 1, "lat"),
            ("lat true", [#"{"lat":true,"lon":13,"t":1700000010}"#], 0, "lat"),
            ("lat null", [#"{"lat":null,"lon":13,"t":1700000010}"#], 0, "lat"),
            ("t missing", [good, good2, #"{"lat":52,"lon":13}"#], 2, "t"),
            ("t string", [#"{"lat":52,"lon":13,"t":"1700000010"}"#], 0, "t"),
            ("acc -1", [good, #"{"lat":52,"lon":13,"t":1700000010,"acc":-1}"#], 1, "acc"),
            ("ele infinite", [#"{"lat":52,"lon":13,"t":1700000010,"ele":1e999}"#], 0, "ele"),
            ("not an object", [good, "[52,13,1700000010]"], 1, nil),
        ]

        static var jsonCases: [BadUpload] {
            badJSONPoints.map { label, points, index, key in
                BadUpload(
                    label: "JSON \(label)", contentType: "application/json",
                    body: #"{"name":"x","points":["# + points.joined(separator: ",") + "]}", index: index, key: key)
            } + [
                BadUpload(
                    label: "JSON NaN", contentType: "application/json",
                    body: #"{"points":[{"lat":NaN,"lon":1,"t":1}]}"#,
                    field: nil),
                BadUpload(label: "JSON empty body", contentType: "application/json", body: "", field: nil),
                BadUpload(
                    label: "JSON truncated", contentType: "application/json", body: #"{"points":[{"lat":1"#, field: nil),
                BadUpload(label: "JSON points not an array", contentType: "application/json", body: #"{"points":{}}"#),
            ]
        }

        static let ndjsonCases: [BadUpload] = [
            BadUpload(
                label: "NDJSON malformed line", contentType: "application/x-ndjson",
                body: "\(good)\n\(good2)\n{\"lat\":52.5,\n{\"lat\":1,\"lon\":1,\"t\":1700000020}\n", index: 2),
            BadUpload(
                label: "NDJSON NaN", contentType: "application/x-ndjson",
                body: "\(good)\n{\"lat\":NaN,\"lon\":1,\"t\":1700000020}\n", index: 1),
            BadUpload(
                label: "NDJSON lat string", contentType: "application/x-ndjson",
                body: "{\"lat\":\"52\",\"lon\":1,\"t\":1700000020}", index: 0, key: "lat"),
            BadUpload(
                label: "NDJSON t too late", contentType: "application/x-ndjson",
                body: "\(good)\n\(good2)\n{\"lat\":52,\"lon\":1,\"t\":253402300800}", index: 2, key: "t"),
            BadUpload(
                label: "NDJSON array line", contentType: "application/x-ndjson", body: "\(good)\n[1,2,3]\n", index: 1),
        ]

        static let textCases: [BadUpload] = [
            BadUpload(
                label: "text nan", contentType: "text/plain", body: "52.5,13.4,1700000000#nan,13.4,1700000005",
                index: 1,
                key: "lat"),
            BadUpload(label: "text inf", contentType: "text/plain", body: "52.5,inf,1700000000", index: 0, key: "lon"),
            BadUpload(
                label: "text lat 91", contentType: "text/plain", body: "52.5,13.4,1700000000#91,13.4,1700000005",
                index: 1,
                key: "lat"),
            BadUpload(label: "text t missing", contentType: "text/plain", body: "52.5,13.4", index: 0, key: "t"),
            BadUpload(label: "text five values", contentType: "text/plain", body: "52.5,13.4,1700000000,1,2", index: 0),
            BadUpload(
                label: "text empty field", contentType: "text/plain",
                body: "52.5,13.4,1700000000##52.5,13.4,1700000009",
                index: 1),
            BadUpload(label: "text t 0", contentType: "text/plain", body: "52.5,13.4,0", index: 0, key: "t"),
            BadUpload(
                label: "text ele word", contentType: "text/plain", body: "52.5,13.4,1700000000,high", index: 0,
                key: "ele"),
        ]

        static let mediaTypeCases: [BadUpload] = [
            BadUpload(
                label: "no Content-Type", contentType: nil, body: #"{"points":[]}"#, status: .unsupportedMediaType,
                field: nil),
            BadUpload(
                label: "XML", contentType: "application/xml", body: "<gpx/>", status: .unsupportedMediaType, field: nil),
            BadUpload(
                label: "CSV", contentType: "text/csv", body: "lat,lon,t\n", status: .unsupportedMediaType, field: nil),
            BadUpload(
                label: "form", contentType: "application/x-www-form-urlencoded", body: "a=b",
                status: .unsupportedMediaType,
                field: nil),
        ]

        static let gpxCases: [BadUpload] = [
            BadUpload(
                label: "GPX DOCTYPE", contentType: "application/gpx+xml",
                body: #"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x "y">]><gpx version="1.1"></gpx>"#, field: nil),
            BadUpload(
                label: "GPX point without time", contentType: "application/gpx+xml", body: gpx(time: false), index: 1,
                key: "time"),
            BadUpload(
                label: "GPX lat 91", contentType: "application/gpx+xml", body: gpx(lat: "91"), index: 1, key: "lat"),
            BadUpload(label: "GPX not XML", contentType: "application/gpx+xml", body: "<gpx><trk>", field: nil),
            BadUpload(
                label: "GPX ele word", contentType: "application/gpx+xml",
                body: gpx().replacingOccurrences(
                    of: "<time>2023-11-14T22:13:25Z", with: "<ele>high</ele><time>2023-11-14T22:13:25Z"),
                index: 1, key: "ele"),
            BadUpload(
                label: "GPX waypoint without lat", contentType: "application/gpx+xml",
                body: gpx().replacingOccurrences(of: "<trk>", with: #"<wpt lon="1"><name>x</name></wpt><trk>"#),
                field: "annotations", index: 0, key: "lat"),
        ]

        static let createFieldCases: [BadUpload] = [
            BadUpload(
                label: "activity WALK", contentType: "application/json", body: #"{"activity":"WALK"}"#,
                field: "activity"),
            BadUpload(label: "name empty", contentType: "application/json", body: #"{"name":""}"#, field: "name"),
            BadUpload(
                label: "name 201", contentType: "application/json",
                body: "{\"name\":\"\(String(repeating: "n", count: 201))\"}", field: "name"),
            BadUpload(
                label: "recording string", contentType: "application/json", body: #"{"recording":"yes"}"#,
                field: "recording"),
            BadUpload(
                label: "annotation without text", contentType: "application/json",
                body: #"{"annotations":[{"lat":1,"lon":2,"t":1700000000,"text":"ok"},{"lat":1,"lon":2}]}"#,
                field: "annotations",
                index: 1, key: "text"),
            BadUpload(
                label: "NDJSON query activity", contentType: "application/x-ndjson", body: good, field: "activity",
                query: "?activity=Run"),
            BadUpload(
                label: "NDJSON query recording", contentType: "application/x-ndjson", body: good, field: "recording",
                query: "?recording=maybe"),
            BadUpload(
                label: "text query name", contentType: "text/plain", body: "52.5,13.4,1700000000", field: "name",
                query: "?name="),
            BadUpload(
                label: "GPX query activity", contentType: "application/gpx+xml", body: gpx(), field: "activity",
                query: "?activity=WALK"),
        ]

        static func gpx(time: Bool = true, lat: String = "52.5001") -> String {
            """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><time>2023-11-14T22:13:20Z</time></trkpt>
            <trkpt lat="\(lat)" lon="13.4001">\(time ? "<time>2023-11-14T22:13:25Z</time>" : "<ele>3</ele>")</trkpt>
            </trkseg></trk></gpx>
            """
        }

        static let oversized = #"{"points":["# + String(repeating: " ", count: 16 * 1024 * 1024) + "]}"

        func check(_ response: TestResponse, _ bad: BadUpload, _ action: String) {
            #expect(response.status == bad.status, "\(action) \(bad): \(response.text.prefix(300))")
            let error = response.json[object: "error"]
            #expect((error["message"] as? String)?.isEmpty == false, "\(action) \(bad)")
            if bad.status == .unsupportedMediaType { #expect(response.errorCode == "unsupported_media_type") }
            if bad.status == .badRequest { #expect(response.errorCode == "invalid_request", "\(action) \(bad)") }
            if let field = bad.field { #expect(error["field"] as? String == field, "\(action) \(bad): \(error)") }
            if let index = bad.index { #expect(error[number: "index"] == Double(index), "\(action) \(bad): \(error)") }
            if let key = bad.key { #expect(error["key"] as? String == key, "\(action) \(bad): \(error)") }
        }

        @Test func badCreatesAreRefusedAndCreateNothing() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let cases =
                    Self.jsonCases + Self.ndjsonCases + Self.textCases + Self.mediaTypeCases + Self.gpxCases
                    + Self.createFieldCases
                for bad in cases {
                    let response = try await client.send(
                        .post, "/v1/routes\(bad.query)", token: token, json: bad.body, contentType: bad.contentType)
                    check(response, bad, "create")
                    #expect(try await client.routeTotal(token) == 0, "create \(bad)")
                }
                let big = try await client.send(.post, "/v1/routes", token: token, json: Self.oversized)
                #expect(big.status == .contentTooLarge && big.errorCode == "payload_too_large")
                let bigGPX = try await client.send(
                    .post, "/v1/routes", token: token, json: Self.oversized, contentType: "application/gpx+xml")
                #expect(bigGPX.status == .contentTooLarge)
                #expect(try await client.routeTotal(token) == 0)
            }
        }

        @Test func badAppendsAreRefusedAndChangeNothing() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(3, t0: 1_600_000_000)
                let id = try await client.createRoute(token, points, recording: true).requiredID()
                let before = try await client.summary(token, id)
                let etag = try await client.send(.get, "/v1/routes/\(id)/points", token: token).headers[.eTag]
                let gpx = Self.gpxCases.map {
                    BadUpload(
                        label: $0.label, contentType: $0.contentType, body: $0.body, status: .unsupportedMediaType,
                        field: nil)
                }
                let cases = Self.jsonCases + Self.ndjsonCases + Self.textCases + Self.mediaTypeCases + gpx
                for bad in cases {
                    let body =
                        bad.contentType == "application/json"
                        ? bad.body.replacingOccurrences(of: #""name":"x","#, with: "") : bad.body
                    check(try await client.append(token, id, body, contentType: bad.contentType ?? ""), bad, "append")
                    if bad.contentType == nil {
                        let response = try await client.send(
                            .post, "/v1/routes/\(id)/points", token: token, json: body, contentType: nil)
                        check(response, bad, "append")
                    }
                    #expect(sameJSON(try await client.summary(token, id), before), "append \(bad)")
                }
                let big = try await client.append(token, id, Self.oversized)
                #expect(big.status == .contentTooLarge && big.errorCode == "payload_too_large")
                #expect(try await client.points(token, id) == points)
                let unchanged = try await client.send(
                    .get, "/v1/routes/\(id)/points", token: token, headers: [.ifNoneMatch: etag ?? "none"])
                #expect(unchanged.status == .notModified)
            }
        }

        @Test func edgeValuesAreAccepted() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let body = #"""
                    {"points":[{"lat":-90,"lon":-180,"t":0.001,"ele":null,"acc":null,"speed":3},
                    {"lat":90,"lon":180,"t":253402300799,"acc":0,"ele":-420.5}]}
                    """#
                let summary = try client.expectCreated(await client.send(.post, "/v1/routes", token: token, json: body))
                let points = try await client.points(token, summary.requiredID())
                #expect(
                    points == [
                        TrackPoint(lat: -90, lon: -180, t: 0.001),
                        TrackPoint(lat: 90, lon: 180, t: 253_402_300_799, ele: -420.5, acc: 0),
                    ])
                #expect(summary["ended_at"] as? String == "9999-12-31T23:59:59.000Z")
            }
        }

        /// A media type is matched without regard to case, parameters or the white space around it.
        @Test func mediaTypesAreReadAsHTTPWritesThem() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let json = #"{"points":[{"lat":1,"lon":2,"t":3}]}"#
                for type in ["Application/JSON", " application/json ;charset=UTF-8", "\tAPPLICATION/json\t; q=1"] {
                    let response = try await client.send(
                        .post, "/v1/routes", token: token, json: json, contentType: type)
                    #expect(response.status == .created, "\(type)")
                }
                let refused = try await client.send(
                    .post, "/v1/routes", token: token, json: json, contentType: "application/json-seq")
                #expect(refused.status == .unsupportedMediaType)
            }
        }
    }
}
