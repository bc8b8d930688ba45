import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RouteRankerModels
import RouteRankerServer
import Synchronization
import TestSupport
import Testing

/// Runs `body` against a real application on its own fresh database in the test MongoDB.
func withApp(
    uri: String = TestEnvironment.mongoURI,
    configure: (inout AppConfiguration) -> Void = { _ in },
    _ body: @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    var logger = Logger(label: "routeranker-test")
    logger.logLevel = .warning
    var configuration = AppConfiguration(
        mongoDBURI: uri, database: TestEnvironment.uniqueDatabaseName("server"), clock: .distinctMilliseconds())
    // scripts/test names the shard plan's command log here.
    configuration.commandLog = ProcessInfo.processInfo.environment["ROUTERANKER_COMMAND_LOG"].flatMap {
        $0.isEmpty ? nil : $0
    }
    configure(&configuration)
    try await TestAppGate.withSlot {
        let app = try buildApplication(configuration, logger: logger)
        try await app.test(.router, body)
    }
}

extension WallClock {
    /// The real time, but never the same millisecond twice: records made one after another get
    /// distinct timestamps (`created_at`, `shared_at`) without a test having to sleep for it.
    static func distinctMilliseconds() -> WallClock {
        let last = Mutex<Double>(0)
        return WallClock {
            let now = Date.now.timeIntervalSince1970
            let ms = last.withLock { last in
                last = max((now * 1000).rounded(.down), last + 1)
                return last
            }
            return Date(timeIntervalSince1970: ms / 1000)
        }
    }
}

/// A decoded JSON body, for assertions that name fields as the contract does.
typealias JSONObject = [String: Any]

extension Dictionary where Key == String, Value == Any {
    /// The object's `id`: a test that gets an object without one fails here, not with a crash.
    func requiredID(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(self["id"] as? String, sourceLocation: sourceLocation)
    }
}

extension TestResponse {
    var json: JSONObject {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed]))
            as? JSONObject ?? [:]
    }

    var text: String { String(buffer: body) }

    /// The `error.code` of an error body.
    var errorCode: String? { (json["error"] as? JSONObject)?["code"] as? String }
}

extension TestClientProtocol {
    /// Sends `body` (a JSON string) with `Content-Type: application/json` unless told otherwise.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil,
        contentType: String? = "application/json", headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil, let contentType { headers[.contentType] = contentType }
        return try await execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Registers a user and returns its token.
    func register(_ id: String, name: String? = nil, friends: [String] = []) async throws -> String {
        let friendList = friends.map { "\"\($0)\"" }.joined(separator: ",")
        let response = try await send(
            .post, "/v1/users", json: #"{"id":"\#(id)","name":"\#(name ?? id)","friends":[\#(friendList)]}"#)
        guard response.status == .created, let token = response.json["token"] as? String else {
            throw TestFailure("registering \(id) gave \(response.status): \(response.text)")
        }
        return token
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
