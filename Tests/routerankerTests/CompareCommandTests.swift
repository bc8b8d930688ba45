import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RouteRankerServer
import TestSupport
import Testing

/// `routeranker compare G1 G2` against a real server on a real database.
@Suite struct CompareCommandTests {
    func post(_ client: some TestClientProtocol, _ path: String, token: String?, _ json: String) async throws
        -> [String: Any]
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
        #expect(response.status == .created, "\(path): \(String(buffer: response.body))")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    /// A straight walk east of `seconds` over 500 m, as a JSON create body.
    func route(_ seconds: Double) -> String {
        let points = (0...10).map { i in
            #"{"lat":52.5,"lon":\#(13.4 + Double(i) * 0.000_736),"t":\#(1_763_800_000 + Double(i) * seconds / 10)}"#
        }
        return #"{"name":"walk","activity":"walk","points":[\#(points.joined(separator: ","))]}"#
    }

    @Test func comparesTwoGroupsAsATableAndAsJSON() async throws {
        var logger = Logger(label: "routeranker-cli-test")
        logger.logLevel = .warning
        let app = try buildApplication(
            AppConfiguration(mongoDBURI: TestEnvironment.mongoURI, database: TestEnvironment.uniqueDatabaseName("cli")),
            logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let user = try await post(client, "/v1/users", token: nil, #"{"id":"ada","name":"Ada"}"#)
            let token = try #require(user["token"] as? String)
            var groups: [String] = []
            for (name, durations) in [("bridge", [100.0, 110, 120]), ("park", [95.0, 130, 140])] {
                var ids: [String] = []
                for seconds in durations {
                    ids.append(
                        try #require(
                            try await post(client, "/v1/routes", token: token, route(seconds))["id"] as? String))
                }
                let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
                let group = try await post(
                    client, "/v1/groups", token: token, #"{"name":"\#(name)","routes":[\#(list)]}"#)
                groups.append(try #require(group["id"] as? String))
            }
            let environment = ["ROUTERANKER_URL": "http://127.0.0.1:\(port)", "ROUTERANKER_TOKEN": token]
            let table = try await RouteRankerCommand.run(
                ["compare"] + groups + ["--metric", "duration_s"], environment: environment)
            #expect(table.status == 0, "\(table.standardError)")
            #expect(table.standardOutput.contains("metric: duration_s"))
            #expect(table.standardOutput.contains("bridge") && table.standardOutput.contains("park"))
            #expect(table.standardOutput.contains("110.000"))  // the bridge group's mean

            let json = try await RouteRankerCommand.run(["compare"] + groups + ["--json"], environment: environment)
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(object["ranking"] as? [String] == groups)
            let pairs = try #require(object["pairs"] as? [[String: Any]])
            #expect(pairs.count == 1)

            let refused = try await RouteRankerCommand.run(
                ["compare"] + groups,
                environment: ["ROUTERANKER_URL": "http://127.0.0.1:\(port)", "ROUTERANKER_TOKEN": "wrong"])
            #expect(refused.status != 0)
        }
    }
}
