import Mongo

/// Whether the database answers: what `/readyz` reports.
struct DatabaseHealth: Sendable {
    let database: MongoDatabase

    /// Throws when the database does not answer a ping.
    func check() async throws {
        try await database.ping()
    }
}
