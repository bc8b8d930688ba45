import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
extension RouteTests {
    /// `GET /v1/routes/{id}/points` in every format, and its `ETag`.
    @Suite struct RoutesDownloadTests {
        /// Points with and without `ele` and `acc`, at fractional times.
        static let points: [TrackPoint] = {
            var points = Fixture.track(12, interval: 2.5)
            points[1].ele = nil
            points[2].acc = 3.25
            points[4].ele = nil
            points[4].acc = 0
            points[7].t += 0.125
            return points
        }()

        /// Creates the download route and returns (token, id).
        func setUp(_ client: any TestClientProtocol) async throws -> (String, String) {
            let token = try await client.register("ada")
            let body = Fixture.jsonBody(
                Self.points, #""name":"Tea <& \"cake\">""#,
                #""annotations":[{"lat":52.5,"lon":13.4,"t":1700000002.5,"text":"Start & go"}]"#)
            let summary = try client.expectCreated(await client.send(.post, "/v1/routes", token: token, json: body))
            return (token, try summary.requiredID())
        }

        func download(_ client: any TestClientProtocol, _ token: String, _ id: String, _ format: String) async throws
            -> TestResponse
        {
            let response = try await client.send(.get, "/v1/routes/\(id)/points?format=\(format)", token: token)
            #expect(response.status == .ok, "\(format): \(response.text.prefix(200))")
            return response
        }

        @Test func jsonAndNdjsonCarryEleAndAccOnlyWhenPresent() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                let plain = try await client.send(.get, "/v1/routes/\(id)/points", token: token)
                let json = try await download(client, token, id, "json")
                #expect(plain.text == json.text)
                #expect(json.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(json.json["id"] as? String == id)
                let objects = try #require(json.json["points"] as? [JSONObject])
                #expect(objects.compactMap(trackPoint) == Self.points)
                #expect(Set(objects[1].keys) == ["lat", "lon", "t"])
                #expect(Set(objects[2].keys) == ["lat", "lon", "t", "ele", "acc"])
                #expect(Set(objects[4].keys) == ["lat", "lon", "t", "acc"])

                let ndjson = try await download(client, token, id, "ndjson")
                #expect(ndjson.headers[.contentType]?.hasPrefix("application/x-ndjson") == true)
                let lines = ndjson.text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == Self.points.count + 1 && lines.last == "")
                let parsed = lines.dropLast().compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? JSONObject
                }
                #expect(parsed.compactMap(trackPoint) == Self.points)
                #expect(parsed[4]["ele"] == nil && parsed[4][number: "acc"] == 0)
            }
        }

        @Test func textRoundTripsWithoutATrailingHash() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                let text = try await download(client, token, id, "text")
                #expect(text.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(!text.text.hasSuffix("#") && !text.text.contains("\n"))
                let fields = text.text.split(separator: "#", omittingEmptySubsequences: false)
                #expect(fields.count == Self.points.count)
                let read = fields.map { field -> TrackPoint in
                    let v = field.split(separator: ",").map { Double($0)! }
                    return TrackPoint(lat: v[0], lon: v[1], t: v[2], ele: v.count > 3 ? v[3] : nil)
                }
                #expect(read == Self.points.map(\.withoutAccuracy))
                // Uploading the download again gives the same points.
                let again = try client.expectCreated(
                    await client.send(.post, "/v1/routes", token: token, json: text.text, contentType: "text/plain"))
                #expect(try await client.points(token, again.requiredID()) == Self.points.map(\.withoutAccuracy))
            }
        }

        @Test func gpxIsGpx11AndParsesBackToThePoints() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                let gpx = try await download(client, token, id, "gpx")
                #expect(gpx.headers[.contentType]?.hasPrefix("application/gpx+xml") == true)
                let structure = XMLShape(Data(gpx.body.readableBytesView))
                #expect(structure.ok)
                #expect(structure.rootVersion == "1.1")
                #expect(structure.paths.contains("gpx/trk/trkseg/trkpt"))
                #expect(structure.paths.contains("gpx/trk/trkseg/trkpt/time"))
                #expect(structure.count("gpx/trk/trkseg/trkpt") == Self.points.count)
                #expect(structure.count("gpx/wpt") == 1)

                let document = try GPXReader.read(Data(gpx.body.readableBytesView))
                #expect(document.points == Self.points.map(\.withoutAccuracy))
                #expect(document.name == "Tea <& \"cake\">")
                #expect(
                    document.annotations == [Annotation(lat: 52.5, lon: 13.4, t: 1_700_000_002.5, text: "Start & go")])
                // Times are RFC 3339 with milliseconds.
                #expect(gpx.text.contains("<time>2023-11-14T22:13:37.625Z</time>"))
            }
        }

        @Test func geojsonIsLonLatWithCoordTimes() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                let geo = try await download(client, token, id, "geojson")
                #expect(geo.headers[.contentType]?.hasPrefix("application/geo+json") == true)
                let feature = geo.json
                #expect(feature["type"] as? String == "Feature")
                let geometry = feature[object: "geometry"]
                #expect(geometry["type"] as? String == "LineString")
                let coordinates = try #require(geometry["coordinates"] as? [[Any]])
                let times = try #require(feature[object: "properties"]["coordTimes"] as? [String])
                #expect(coordinates.count == Self.points.count && times.count == Self.points.count)
                for (i, p) in Self.points.enumerated() {
                    let expected = [p.lon, p.lat] + (p.ele.map { [$0] } ?? [])
                    #expect(coordinates[i].compactMap(number) == expected, "point \(i)")
                    #expect(times[i].wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,}Z/) != nil)
                    #expect(RFC3339.parse(times[i]) == p.t, "time \(i)")
                }
            }
        }

        @Test func csvHasTheHeaderLfAndEmptyEle() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                let csv = try await download(client, token, id, "csv")
                #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
                #expect(!csv.text.contains("\r"))
                let lines = csv.text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.first == "lat,lon,t,ele")
                #expect(lines.last == "" && lines.count == Self.points.count + 2)
                #expect(lines[2].hasSuffix(",") && lines[2].split(separator: ",").count == 3)
                let read = lines.dropFirst().dropLast().map { line -> TrackPoint in
                    let v = line.split(separator: ",", omittingEmptySubsequences: false)
                    return TrackPoint(lat: Double(v[0])!, lon: Double(v[1])!, t: Double(v[2])!, ele: Double(v[3]))
                }
                #expect(read == Self.points.map(\.withoutAccuracy))
            }
        }

        @Test func unknownFormatIs400() async throws {
            try await withApp { client in
                let (token, id) = try await setUp(client)
                for format in ["xml", "JSON", ""] {
                    let response = try await client.send(.get, "/v1/routes/\(id)/points?format=\(format)", token: token)
                    #expect(response.status == .badRequest, "\(format)")
                    #expect((response.json["error"] as? JSONObject)?["field"] as? String == "format")
                }
            }
        }

        @Test func emptyRouteDownloadsAreValidDocuments() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let id = try await client.createRoute(token).requiredID()
                #expect(try await client.points(token, id) == [])
                #expect(try await download(client, token, id, "text").text == "")
                #expect(try await download(client, token, id, "csv").text == "lat,lon,t,ele\n")
                let gpx = try await download(client, token, id, "gpx")
                #expect(try GPXReader.read(Data(gpx.body.readableBytesView)).points == [])
                let geo = try await download(client, token, id, "geojson").json
                #expect((geo[object: "geometry"]["coordinates"] as? [Any])?.isEmpty == true)
            }
        }
    }
}

/// The element paths of an XML document, from Foundation's parser.
final class XMLShape: NSObject, XMLParserDelegate {
    private(set) var paths: [String] = []
    private(set) var rootVersion: String?
    private(set) var ok = false
    private var stack: [String] = []

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        ok = parser.parse()
    }

    func count(_ path: String) -> Int { paths.filter { $0 == path }.count }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if stack.isEmpty { rootVersion = attributes["version"] }
        stack.append(name)
        paths.append(stack.joined(separator: "/"))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }
}
