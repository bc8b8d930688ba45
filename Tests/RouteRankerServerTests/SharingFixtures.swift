import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Mongo
import RouteRankerCore
import RouteRankerServer
import TestSupport

/// Tracks, parsers and calls for the sharing, link and privacy-zone tests.
enum SharingFixture {
    static let t0 = 1_750_000_000.0
    /// Where the sharing tests' routes start.
    static let start = Coordinate(lat: 48.137, lon: 11.575)
    /// Every download format.
    static let formats = ["json", "ndjson", "text", "gpx", "geojson", "csv"]
    /// A route id that exists nowhere (an ObjectId, as real ids are).
    static let madeUpRoute = "65f0c0ffee0000000000beef"
    /// A link secret that exists nowhere (43 base64url chars, as real ones are).
    static let madeUpSecret = "q2Vb0cT1mR8xYw3ZpL5nK7jH9gF4dS6aQ0eU2iO1yTz"

    /// `count` points 100 m apart heading east from `from`, 20 s apart (5 m/s), with an elevation.
    static func line(_ count: Int = 30, from: Coordinate = start, t0: Double = t0) -> [TrackPoint] {
        (0..<count).map { i in
            let c = Geodesic.direct(from: from, azimuth: 90, distance: 100 * Double(i))
            return TrackPoint(lat: c.lat, lon: c.lon, t: t0 + 20 * Double(i), ele: 500 + Double(i % 7))
        }
    }

    static func pointsJSON(_ points: [TrackPoint]) -> String {
        "["
            + points.map { #"{"lat":\#($0.lat),"lon":\#($0.lon),"t":\#($0.t),"ele":\#($0.ele ?? 0)}"# }
            .joined(separator: ",") + "]"
    }

    /// A number from a decoded JSON value. (Linux's `JSONSerialization` may round the last digit:
    /// compare coordinates with a tolerance.)
    static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// The items of a list envelope.
    static func items(_ response: TestResponse) -> [JSONObject] {
        response.json["items"] as? [JSONObject] ?? []
    }

    /// The ids (`id`, or `route` for shares and the inbox) of a list's items.
    static func ids(_ response: TestResponse, key: String = "id") -> [String] {
        items(response).compactMap { $0[key] as? String }
    }

    /// The coordinates of a download, whatever its format.
    static func coordinates(_ body: String, format: String) throws -> [Coordinate] {
        func object(_ text: some StringProtocol) throws -> JSONObject {
            guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? JSONObject else {
                throw TestFailure("not a JSON object: \(text.prefix(200))")
            }
            return object
        }
        func coordinate(_ point: JSONObject) throws -> Coordinate {
            guard let lat = double(point["lat"]), let lon = double(point["lon"]) else {
                throw TestFailure("no lat/lon in \(point)")
            }
            return Coordinate(lat: lat, lon: lon)
        }
        func parsed(_ lat: some StringProtocol, _ lon: some StringProtocol) throws -> Coordinate {
            guard let lat = Double(lat.trimmingCharacters(in: .whitespaces)),
                let lon = Double(lon.trimmingCharacters(in: .whitespaces))
            else { throw TestFailure("not a coordinate: \(lat),\(lon)") }
            return Coordinate(lat: lat, lon: lon)
        }
        switch format {
        case "json":
            return try (try object(body)["points"] as? [JSONObject] ?? []).map(coordinate)
        case "ndjson":
            return try body.split(separator: "\n").map { try coordinate(try object($0)) }
        case "text":
            return try body.split(separator: "#").map {
                let fields = $0.split(separator: ",")
                return try parsed(fields[0], fields[1])
            }
        case "gpx":
            return try body.matches(of: /<trkpt lat="([^"]+)" lon="([^"]+)"/).map { try parsed($0.1, $0.2) }
        case "geojson":
            let geometry = try object(body)["geometry"] as? JSONObject ?? [:]
            return try (geometry["coordinates"] as? [[Any]] ?? []).map {
                guard let lon = double($0[0]), let lat = double($0[1]) else { throw TestFailure("bad \($0)") }
                return Coordinate(lat: lat, lon: lon)
            }
        case "csv":
            let rows = body.split(separator: "\n")
            guard rows.first == "lat,lon,t,ele" else { throw TestFailure("csv header: \(rows.first ?? "")") }
            return try rows.dropFirst().map {
                let fields = $0.split(separator: ",", omittingEmptySubsequences: false)
                return try parsed(fields[0], fields[1])
            }
        default:
            throw TestFailure("unknown format \(format)")
        }
    }

    /// Whether two coordinates are the same to within a few centimetres.
    static func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
        abs(a.lat - b.lat) < 1e-6 && abs(a.lon - b.lon) < 1e-6
    }

    /// A `stats.start` / `stats.end` as a coordinate.
    static func endpoint(_ value: Any?) -> Coordinate? {
        guard let object = value as? JSONObject, let lat = double(object["lat"]), let lon = double(object["lon"])
        else { return nil }
        return Coordinate(lat: lat, lon: lon)
    }

    /// `bbox` as `[min_lon, min_lat, max_lon, max_lat]` of `points`.
    static func bbox(_ points: [Coordinate]) -> [Double] {
        [
            points.map(\.lon).min() ?? 0, points.map(\.lat).min() ?? 0, points.map(\.lon).max() ?? 0,
            points.map(\.lat).max() ?? 0,
        ]
    }

    /// A date from an RFC 3339 timestamp with milliseconds.
    static func date(_ value: Any?) -> Date? {
        guard let string = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: string)
    }
}

extension TestClientProtocol {
    /// Creates a finished route of `points` for `token` and returns its id; anything but `201` throws.
    func newSharedRoute(
        _ token: String, name: String = "Loop", points: [TrackPoint] = SharingFixture.line(),
        annotations: String = "[]", recording: Bool = false
    ) async throws -> String {
        let body =
            #"{"name":"\#(name)","points":\#(SharingFixture.pointsJSON(points)),"annotations":\#(annotations),"#
            + #""recording":\#(recording)}"#
        let response = try await send(.post, "/v1/routes", token: token, json: body)
        guard response.status == .created, let id = response.json["id"] as? String else {
            throw TestFailure("creating a route gave \(response.status): \(response.text)")
        }
        return id
    }

    /// `POST /v1/routes/{id}/shares` with `{"to": to}`.
    func shareRoute(_ token: String, _ route: String, to: String) async throws -> TestResponse {
        try await send(.post, "/v1/routes/\(route)/shares", token: token, json: #"{"to":"\#(to)"}"#)
    }

    /// Creates a link and returns its id and secret; anything but `201` throws.
    func newLink(_ token: String, _ route: String, expiresIn: Double? = nil) async throws -> (
        id: String, secret: String
    ) {
        let body = expiresIn.map { #"{"expires_in_s":\#($0)}"# } ?? "{}"
        let response = try await send(.post, "/v1/routes/\(route)/links", token: token, json: body)
        guard response.status == .created, let id = response.json["id"] as? String,
            let url = response.json["url"] as? String, url.hasPrefix("/v1/links/")
        else { throw TestFailure("creating a link gave \(response.status): \(response.text)") }
        return (id, String(url.dropFirst("/v1/links/".count)))
    }

    /// `PUT /v1/users/me/privacy_zones`.
    func putZones(_ token: String, _ json: String) async throws -> TestResponse {
        try await send(.put, "/v1/users/me/privacy_zones", token: token, json: json)
    }
}

/// Like `withApp`, on a database whose name the caller chose, so that it can read it directly.
func withApp(database: String, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    var logger = Logger(label: "routeranker-test")
    logger.logLevel = .warning
    try await TestAppGate.withSlot {
        let app = try buildApplication(
            AppConfiguration(
                mongoDBURI: TestEnvironment.mongoURI, database: database, clock: .distinctMilliseconds()),
            logger: logger)
        try await app.test(.router, body)
    }
}
