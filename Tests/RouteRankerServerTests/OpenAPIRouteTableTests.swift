import Foundation
import Logging
import Mongo
import Prometheus
import RouteRankerStorage
import TestSupport
import Testing

@testable import RouteRankerServer

/// The OpenAPI file describes exactly the route table: every (method, path) the server answers is
/// in `openapi.yaml`, and the file lists nothing the server does not answer.
@Suite struct OpenAPIRouteTableTests {
    /// `(method, path)` pairs of the `paths:` section: a path at two spaces, its operations at four.
    static func documented(_ yaml: String) -> Set<String> {
        var found: Set<String> = []
        var inPaths = false
        var path: String?
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), let path {
                let method = String(line.dropFirst(4).dropLast())
                if methods.contains(method) { found.insert("\(method.uppercased()) \(path)") }
            }
        }
        return found
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let client = try MongoClient(uri: TestEnvironment.mongoURI, logger: Logger(label: "openapi-test"))
        let document = try OpenAPIDocument.load()
        let storage = Storage(database: MongoDatabase(client: client, name: "unused"), clock: .system)
        let controllers = Controllers(
            storage: storage, hub: LiveHub(feeds: storage.changeFeeds, logger: Logger(label: "openapi-test")),
            clock: .system, similarCellBudget: AppConfiguration().similarCellBudget,
            registry: PrometheusCollectorRegistry(), openAPIDocument: document, publicURL: nil,
            sweepInterval: .seconds(10), logger: Logger(label: "openapi-test"))
        let served = Set(routeTable(controllers).map { "\($0.method.rawValue) \($0.path)" })
        let documented = Self.documented(String(decoding: document, as: UTF8.self))
        #expect(served.count > 30)
        #expect(
            served.subtracting(documented).isEmpty,
            "served but not in openapi.yaml: \(served.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(served).isEmpty,
            "in openapi.yaml but not served: \(documented.subtracting(served).sorted())")
    }
}
