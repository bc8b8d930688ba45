import Foundation
import Logging
import Mongo
import TestSupport

/// Runs `body` with a database of its own in the test database (`scripts/test` starts it), so that
/// tests run in parallel without seeing each other; dropped afterwards.
func withTestDatabase<T>(_ label: String, _ body: (MongoDatabase) async throws -> T) async throws -> T {
    let client = try MongoClient(
        uri: TestEnvironment.mongoURI, logger: Logger(label: "storage-test"), defaultPoolSize: 4)
    defer { client.shutdown() }
    let database = MongoDatabase(client: client, name: TestEnvironment.uniqueDatabaseName(label))
    do {
        let result = try await body(database)
        try? await database.drop()
        return result
    } catch {
        try? await database.drop()
        throw error
    }
}
