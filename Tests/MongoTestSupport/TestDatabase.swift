import Foundation
import Logging
import Mongo
import Testing

/// The database the tests run against: `MONGODB_URI` (scripts/test starts a throwaway SecantusDB and
/// sets it). Without it every database test fails with a message saying so, rather than skipping.
public enum TestDatabase {
    public struct MissingURI: Error, CustomStringConvertible {
        public init() {}

        public var description: String {
            "MONGODB_URI is not set: run the tests with scripts/test, or start a SecantusDB "
                + "(never --standalone) and export MONGODB_URI=mongodb://127.0.0.1:PORT/"
        }
    }

    /// One client for the whole test process, as the server has one.
    public static let client: Result<MongoClient, any Error> = {
        guard let uri = ProcessInfo.processInfo.environment["MONGODB_URI"], !uri.isEmpty else {
            return .failure(MissingURI())
        }
        return Result { try MongoClient(uri: uri, logger: Logger(label: "MongoTests")) }
    }()

    /// Runs `body` with a database of its own (so tests can run in parallel), dropped afterwards.
    public static func with<T>(
        _ label: String, _ body: (MongoDatabase) async throws -> T
    ) async throws -> T {
        let client = try client.get()
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let database = MongoDatabase(client: client, name: "mt_\(label)_\(suffix)")
        do {
            let result = try await body(database)
            try? await database.drop()
            return result
        } catch {
            try? await database.drop()
            throw error
        }
    }
}

/// Runs `body` with a client of one pooled connection, whose only slot a test can hold
/// (`BlockingPool.occupySlot`) so that the calls after it queue, and a collection of a database of
/// its own, dropped afterwards.
public func withOneSlotClient(
    _ name: String, _ body: (MongoClient, MongoCollection) async throws -> Void
) async throws {
    let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
    let separator = uri.contains("?") ? "&" : "?"
    let client = try MongoClient(uri: uri + separator + "maxPoolSize=1", logger: Logger(label: "one-slot"))
    defer { client.shutdown() }
    let items = MongoDatabase(client: client, name: "mt_\(name)_\(UUID().uuidString.prefix(8))").collection("items")
    try await body(client, items)
    try await items.database.drop()
}

/// Runs `callers` operations at once against a collection of a database that does not answer
/// (nothing listens on port 1; 0.5 s to select a server); returns whether each failed with
/// `.unavailable`, and the collection (of a client shut down by then), whose client's counters a
/// test reads to see how many commands went out for them.
public func callersWithoutADatabase(
    _ callers: Int, _ operation: @escaping @Sendable (MongoCollection, Int) async throws -> Void
) async throws -> (unavailable: [Bool], collection: MongoCollection) {
    let client = try MongoClient(
        uri: "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500&connectTimeoutMS=500", logger: Logger(label: "t"))
    defer { client.shutdown() }
    let items = MongoDatabase(client: client, name: "unused").collection("items")
    let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
        for caller in 0..<callers {
            group.addTask {
                do {
                    try await operation(items, caller)
                    return false
                } catch let error as MongoError {
                    if case .unavailable = error { return true }
                    return false
                }
            }
        }
        return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    return (outcomes, items)
}

/// Runs `body` and returns the `MongoError` it throws; records an issue if it throws something else
/// or nothing.
public func mongoError(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> MongoError? {
    do {
        try await body()
        Issue.record("expected a MongoError, got success", sourceLocation: sourceLocation)
    } catch let error as MongoError {
        return error
    } catch {
        Issue.record("expected a MongoError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

extension MongoError {
    public var isDuplicateKey: Bool {
        if case .duplicateKey = self { true } else { false }
    }

    public var isUnavailable: Bool {
        if case .unavailable = self { true } else { false }
    }
}
