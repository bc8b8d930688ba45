import Foundation
import Mongo

/// Progress of a long migration that runs beside the server rather than before it (in
/// `migrations`, `_id` its name): where it got to (the last route id it handled, so a restart
/// goes on from there) and whether it is done. Several processes may run one at once: each
/// step is idempotent, and the recorded position only moves forward.
package struct MigrationProgress: Sendable {
    let collection: MongoCollection
    let name: String

    package init(database: MongoDatabase, name: String) {
        collection = database.collection("migrations")
        self.name = name
    }

    /// nil when done; else the position to go on after (nil position: from the start).
    package func position() async throws -> (after: String?, done: Bool) {
        guard let document = try await collection.findOne(["_id": .string(name)]) else { return (nil, false) }
        return (document.string("after"), document["done_at"] != nil)
    }

    /// Records that everything up to `after` is handled (never moving back).
    package func advance(to after: String) async throws {
        do {
            _ = try await collection.updateOne(
                filter: [
                    "_id": .string(name), "$or": [["after": ["$lt": .string(after)]], ["after": ["$exists": false]]],
                ],
                update: ["$set": ["after": .string(after)]], upsert: true)
        } catch MongoError.duplicateKey {
            // Another process is further on: its position stands.
        }
    }

    /// Marks the migration done.
    package func finish(now: Date) async throws {
        _ = try await collection.updateOne(
            filter: ["_id": .string(name)], update: ["$set": ["done_at": .date(now)]], upsert: true)
    }
}
