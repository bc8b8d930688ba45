import ArgumentParser
import Foundation
import RouteRankerModels
import RouteRankerServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `routeranker compare G1 G2 …`: asks a RouteRanker server to compare groups of routes and prints
/// the answer as a table an analyst can read (or the raw JSON with `--json`).
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare groups of routes: which is faster, by how much, and how sure we are.")

    @Argument(help: "Two to fifty group ids.")
    var groups: [String]

    @Option(help: "duration_s, moving_time_s, avg_pace_s_per_km, avg_speed_mps or distance_m.")
    var metric = "duration_s"

    @Option(help: "The server's base URL (default: $ROUTERANKER_URL, else http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "A bearer token (default: $ROUTERANKER_TOKEN).")
    var token: String?

    @Flag(help: "Print the server's JSON instead of a table.")
    var json = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let base = server ?? environment["ROUTERANKER_URL"] ?? "http://127.0.0.1:8080"
        guard let token = token ?? environment["ROUTERANKER_TOKEN"] else {
            throw ValidationError("give --token or set ROUTERANKER_TOKEN")
        }
        var components = URLComponents(string: base + "/v1/compare")
        components?.queryItems = [
            URLQueryItem(name: "groups", value: groups.joined(separator: ",")),
            URLQueryItem(name: "metric", value: metric),
        ]
        guard let url = components?.url else { throw ValidationError("not a URL: \(base)") }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.error.message
            throw ValidationError("the server answered \(status): \(message ?? String(decoding: data, as: UTF8.self))")
        }
        if json {
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(ComparisonTable(try JSONDecoder().decode(Comparison.self, from: data)).render())
        }
    }
}

private struct ErrorBody: Decodable {
    struct Detail: Decodable { var message: String }
    var error: Detail
}
