import Foundation
import Mongo

/// An import's archive, stored as it arrives in 1 MiB chunks of `import_chunks` (`_id`
/// `"<import>:<n>"`), so that the `202` means the archive is durable and memory holds one chunk
/// whatever the archive's size. Read back by position (`read(at:)`), which is what a zip reader
/// needs: the central directory is at the end, the entries where it says.
///
/// Why not GridFS: this wrapper has no GridFS API (libmongoc's would be a new binding with its
/// own streams), and a collection of our own gives what is needed with the code that exists —
/// `insertMany` of a few chunks at a time, reads of one chunk by `_id`, removal by import — and a
/// shard key (`import`, hashed) that keeps one archive on one shard.
package struct ArchiveChunks: Sendable {
    package let collection: MongoCollection

    /// Bytes per chunk: well under MongoDB's 16 MiB document limit, and one chunk is what a
    /// request or a reader holds in memory.
    package static let chunkSize = 1 << 20

    package init(database: MongoDatabase) {
        collection = database.collection("import_chunks")
    }

    package static let indexes = [MongoIndex(keys: ["import": 1, "n": 1], name: "import_n")]

    /// Stores chunk `n` of `job` (storing it again is harmless).
    package func store(job: String, n: Int, bytes: [UInt8]) async throws {
        do {
            try await collection.insertOne([
                "_id": .string("\(job):\(n)"), "import": .string(job), "n": .int(n),
                "data": .binary(subtype: 0, bytes),
            ])
        } catch MongoError.duplicateKey {
            // Stored by an earlier attempt: the same bytes.
        }
    }

    /// Chunk `n` of `job`.
    package func chunk(job: String, n: Int) async throws -> [UInt8] {
        guard let document = try await collection.findOne(["_id": .string("\(job):\(n)"), "import": .string(job)]),
            case .binary(_, let bytes) = document["data"]
        else { throw StorageError.malformed("archive chunk", "\(job):\(n)") }
        return bytes
    }

    /// Removes the archive of `job`.
    package func deleteAll(job: String) async throws {
        _ = try await collection.deleteMany(["import": .string(job)])
    }
}
