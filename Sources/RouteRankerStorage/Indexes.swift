import Logging
import Mongo

/// Creates every collection's indexes at start-up (creating an existing index is a no-op).
package enum Indexes {
    package static let all: [(collection: String, indexes: [MongoIndex])] = [
        ("users", UserRepository.indexes),
        ("routes", RouteRepository.indexes),
        ("route_starts", RouteStartRepository.indexes),
        ("points", PointBuckets.indexes),
        ("shares", ShareRepository.indexes),
        ("links", LinkRepository.indexes),
        ("groups", GroupRepository.indexes),
        ("paths", PathRepository.indexes),
        ("segments", SegmentRepository.indexes),
        ("efforts", EffortRepository.indexes),
        ("best_efforts", BestEffortRepository.indexes),
        ("imports", ImportRepository.importIndexes),
        ("import_files", ImportRepository.fileIndexes),
        ("import_chunks", ArchiveChunks.indexes),
        ("route_areas", RouteAreaRepository.indexes),
        ("devices", DeviceRepository.indexes),
    ]

    /// Creates the indexes, retrying while the database is not reachable yet (e.g. it is still
    /// starting next to the server), for up to `patience`.
    package static func create(in database: MongoDatabase, logger: Logger, patience: Duration = .seconds(60))
        async throws
    {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                for (collection, indexes) in all {
                    try await database.collection(collection).createIndexes(indexes)
                }
                return
            } catch MongoError.unavailable(let message) where ContinuousClock.now < deadline {
                logger.warning("database not reachable yet, retrying", metadata: ["error": "\(message)"])
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
