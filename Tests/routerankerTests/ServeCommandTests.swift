import Foundation
import Testing

/// `routeranker serve`'s tile options are checked before anything starts: an unusable tile server
/// is a usage error that says why, not a server whose maps fail in every browser.
@Suite struct ServeCommandTests {
    @Test(arguments: [
        (["--tile-url", "https://tiles.example.org/{z}/{x}.png", "--tile-attribution", "A"], "{y} is missing"),
        (["--tile-url", "ftp://tiles.example.org/{z}/{x}/{y}.png", "--tile-attribution", "A"], "http or https"),
        (["--tile-url", "https://tiles.example.org/{z}/{x}/{y}.png"], "attribution"),
        (["--tile-attribution", "A"], "--tile-attribution needs --tile-url"),
    ])
    func anUnusableTileServerIsAUsageError(arguments: [String], reason: String) async throws {
        // No database is named: the check must come before any connection is tried.
        let result = try await RouteRankerCommand.run(
            ["serve", "--port", "1"] + arguments, environment: ["MONGODB_URI": "mongodb://127.0.0.1:1/"])
        #expect(result.status != 0)
        #expect(result.standardError.contains(reason), "\(result.standardError)")
    }
}
