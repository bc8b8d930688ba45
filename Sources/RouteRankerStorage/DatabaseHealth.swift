import Mongo

/// Whether the database answers: what `/readyz` reports.
package struct DatabaseHealth: Sendable {
    package let database: MongoDatabase

    package init(database: MongoDatabase) {
        self.database = database
    }

    /// Throws when the database does not answer a ping.
    package func check() async throws {
        try await database.ping()
    }
}
