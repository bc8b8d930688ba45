import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import NIOCore
import RouteRankerCore
import RouteRankerModels
import RouteRankerServer
import TestSupport
import Testing

/// The routes tests, one at a time. Side by side they load a 2-core machine enough (big bodies,
/// thousands of points, each test with its own app) to push the timing checks of `OutageTests`
/// over their limits; one at a time they take about 40 s.
@Suite(.serialized) enum RouteTests {}

/// Points and bodies for the routes tests: deterministic tracks, and the same points in every
/// upload format.
enum Fixture {
    static let t0 = 1_700_000_000.0
    static let origin = Coordinate(lat: 52.5, lon: 13.4)

    /// `count` points one every `interval` s, heading `azimuth`, at a speed that wobbles around
    /// `speed` m/s, with an elevation that rolls by ±12 m (when `ele`).
    static func track(
        _ count: Int, from start: Coordinate = origin, t0: Double = t0, interval: Double = 5, speed: Double = 1.5,
        azimuth: Double = 45, ele: Bool = true
    ) -> [TrackPoint] {
        var points: [TrackPoint] = []
        points.reserveCapacity(count)
        var here = start
        for i in 0..<count {
            let e = ele ? (300 + 12 * sin(Double(i) / 9) * 10).rounded() / 10 : nil
            points.append(TrackPoint(lat: here.lat, lon: here.lon, t: t0 + Double(i) * interval, ele: e))
            let step = speed * interval * (1 + 0.4 * sin(Double(i) / 5))
            here = Geodesic.direct(from: here, azimuth: azimuth, distance: step)
        }
        return points
    }

    /// The point `metres` from `p` (heading `azimuth`), `seconds` later.
    static func after(_ p: TrackPoint, metres: Double, seconds: Double, azimuth: Double = 90) -> TrackPoint {
        let c = Geodesic.direct(from: p.coordinate, azimuth: azimuth, distance: metres)
        return TrackPoint(lat: c.lat, lon: c.lon, t: p.t + seconds)
    }

    /// One point as a JSON object; `ele`/`acc` only when present.
    static func json(_ p: TrackPoint) -> String {
        var s = "{\"lat\":\(p.lat),\"lon\":\(p.lon),\"t\":\(p.t)"
        if let ele = p.ele { s += ",\"ele\":\(ele)" }
        if let acc = p.acc { s += ",\"acc\":\(acc)" }
        return s + "}"
    }

    static func jsonArray(_ points: [TrackPoint]) -> String {
        "[" + points.map(json).joined(separator: ",") + "]"
    }

    /// `{"points":[…]}` plus any other members given as JSON text (`"name":"x"`).
    static func jsonBody(_ points: [TrackPoint], _ members: String...) -> String {
        "{" + (members + ["\"points\":\(jsonArray(points))"]).joined(separator: ",") + "}"
    }

    static func ndjson(_ points: [TrackPoint]) -> String {
        points.map { json($0) + "\n" }.joined()
    }

    /// The phone format, `lat,lon,t[,ele]` joined by `#` (no `acc`).
    static func text(_ points: [TrackPoint]) -> String {
        points.map { p in "\(p.lat),\(p.lon),\(p.t)" + (p.ele.map { ",\($0)" } ?? "") }.joined(separator: "#")
    }

    /// The geodesic length of the path through `points`.
    static func length(_ points: [TrackPoint]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + Geodesic.distance(from: $1.0.coordinate, to: $1.1.coordinate) }
    }
}

/// A JSON number as a `Double`, whatever `JSONSerialization` made of it. (On Linux it makes
/// `NSDecimalNumber`s, whose `doubleValue` can be off by an ulp; their text is exact.)
func number(_ value: Any?) -> Double? {
    switch value {
    case let n as NSDecimalNumber: Double(n.description) ?? n.doubleValue
    case let d as Double: d
    case let i as Int: Double(i)
    case let n as NSNumber: n.doubleValue
    default: nil
    }
}

/// Structural equality of two decoded JSON values, numbers compared as `Double`s (exactly).
func sameJSON(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (nil, nil), (is NSNull, is NSNull): return true
    case (let x as String, let y as String): return x == y
    case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
    case (let x as [String: Any], let y as [String: Any]):
        return Set(x.keys) == Set(y.keys) && x.allSatisfy { sameJSON($0.value, y[$0.key]) }
    default:
        guard let x = number(a), let y = number(b) else { return false }
        return x == y
    }
}

extension JSONObject {
    subscript(object key: String) -> JSONObject { self[key] as? JSONObject ?? [:] }
    subscript(number key: String) -> Double? { RouteRankerServerTests.number(self[key]) }
}

/// A `TrackPoint` from a decoded JSON point object.
func trackPoint(_ object: JSONObject) -> TrackPoint? {
    guard let lat = object[number: "lat"], let lon = object[number: "lon"], let t = object[number: "t"] else {
        return nil
    }
    return TrackPoint(lat: lat, lon: lon, t: t, ele: object[number: "ele"], acc: object[number: "acc"])
}

extension TrackPoint {
    /// Without `acc` (formats that cannot carry it).
    var withoutAccuracy: TrackPoint { TrackPoint(lat: lat, lon: lon, t: t, ele: ele) }
}

extension TestClientProtocol {
    /// Creates a route from JSON points and returns its summary; anything but `201` throws.
    func createRoute(
        _ token: String, _ points: [TrackPoint] = [], name: String = "Route", activity: String? = nil,
        recording: Bool = false
    ) async throws -> JSONObject {
        var members = ["\"name\":\"\(name)\""]
        if let activity { members.append("\"activity\":\"\(activity)\"") }
        if recording { members.append("\"recording\":true") }
        let body = "{" + (members + ["\"points\":\(Fixture.jsonArray(points))"]).joined(separator: ",") + "}"
        return try await expectCreated(send(.post, "/v1/routes", token: token, json: body))
    }

    /// Creates a route from an NDJSON body (route fields in `query`).
    func createStreamed(_ token: String, _ points: [TrackPoint], query: String = "name=Streamed") async throws
        -> JSONObject
    {
        try await expectCreated(
            send(
                .post, "/v1/routes?\(query)", token: token, json: Fixture.ndjson(points),
                contentType: "application/x-ndjson"))
    }

    func expectCreated(_ response: TestResponse) throws -> JSONObject {
        guard response.status == .created, response.json["id"] is String else {
            throw TestFailure("create gave \(response.status): \(response.text.prefix(300))")
        }
        return response.json
    }

    /// Appends `body` to route `id`.
    func append(_ token: String, _ id: String, _ body: String, contentType: String = "application/json")
        async throws -> TestResponse
    {
        try await send(.post, "/v1/routes/\(id)/points", token: token, json: body, contentType: contentType)
    }

    /// Appends JSON points and returns `{"accepted","duplicates","dropped","stats"}`; not `200` throws.
    func appendPoints(_ token: String, _ id: String, _ points: [TrackPoint]) async throws -> JSONObject {
        let response = try await append(token, id, Fixture.jsonBody(points))
        guard response.status == .ok else { throw TestFailure("append gave \(response.status): \(response.text)") }
        return response.json
    }

    func summary(_ token: String, _ id: String) async throws -> JSONObject {
        let response = try await send(.get, "/v1/routes/\(id)", token: token)
        guard response.status == .ok else { throw TestFailure("GET route gave \(response.status): \(response.text)") }
        return response.json
    }

    /// The route's points, from the JSON download.
    func points(_ token: String, _ id: String) async throws -> [TrackPoint] {
        let response = try await send(.get, "/v1/routes/\(id)/points", token: token)
        guard response.status == .ok, let items = response.json["points"] as? [JSONObject] else {
            throw TestFailure("download gave \(response.status): \(response.text.prefix(300))")
        }
        return items.compactMap(trackPoint)
    }

    /// `total` of `GET /v1/routes`.
    func routeTotal(_ token: String) async throws -> Int? {
        try await send(.get, "/v1/routes", token: token).json["total"] as? Int
    }
}

/// Like `withApp`, plus a handle on the application's own database for checks no endpoint offers
/// (the buckets of a route); `clock` is the server's.
func withAppAndDatabase(
    _ mode: TestingSetup = .router, clock: WallClock = .distinctMilliseconds(),
    _ body: @Sendable (any TestClientProtocol, MongoDatabase) async throws -> Void
) async throws {
    var logger = Logger(label: "routeranker-test")
    logger.logLevel = .warning
    let name = TestEnvironment.uniqueDatabaseName("server")
    try await TestAppGate.withSlot {
        let app = try buildApplication(
            AppConfiguration(mongoDBURI: TestEnvironment.mongoURI, database: name, clock: clock),
            logger: logger)
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: logger, defaultPoolSize: 2)
        defer { mongo.shutdown() }
        let database = MongoDatabase(client: mongo, name: name)
        try await app.test(mode) { client in try await body(client, database) }
    }
}
