import Mongo

/// Reads documents of one collection by `_id`, sharing a round trip with the reads that other
/// requests ask for at the same moment (`Coalescer`): while a read of this collection is under way,
/// the ids asked for meanwhile gather into one pending batch, read with a single
/// `_id: {$in: …}` query as soon as the read before it is done.
///
/// Nothing is cached. A caller joins only a batch that has not been sent yet, so every document it
/// gets was read after it asked: a rotated token, a revoked share or a deleted route is seen by
/// every request that arrives after the change was acknowledged, exactly as with a query of its own.
///
/// Each caller gets the documents of its own ids and no others: a batch reads every caller's
/// documents (a user's token hash among them), and a caller handed the whole batch would be one
/// `for document in found.values` away from passing them on.
final class CoalescedReads: Sendable {
    private let coalescer: Coalescer<[String], [String: BSONDocument]>

    /// How many reads of this collection may be under way at once; further callers gather.
    var maxInFlight: Int { coalescer.maxInFlight }
    /// The most ids one query asks for: a long `$in` costs SecantusDB time quadratic in its length.
    /// A caller asking for more asks in parts.
    var maxBatch: Int { coalescer.maxBatch }
    /// The most callers that may wait in pending batches (then `MongoError.overloaded`).
    var maxWaiting: Int { coalescer.maxWaiting }

    /// How many queries this reader has sent (each serving one batch).
    var queriesSent: Int { coalescer.commandsSent }

    /// How many callers wait in pending batches.
    var callersWaiting: Int { coalescer.callersWaiting }

    init(
        maxInFlight: Int, maxBatch: Int, maxWaiting: Int,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        coalescer = Coalescer(maxInFlight: maxInFlight, maxBatch: maxBatch, maxWaiting: maxWaiting, clock: clock) {
            $0.count
        }
    }

    /// The documents of `collection` (the one this reader is for) whose `_id` is one of `ids`
    /// (strings), by `_id`; ids with no document are absent. `ids` may be empty (no read) and may
    /// repeat. The result holds only documents of `ids`, though the query read other callers' too.
    func documents(_ ids: [String], in collection: MongoCollection, linger: Duration = .zero) async throws
        -> [String: BSONDocument]
    {
        guard ids.count <= maxBatch else {
            var found: [String: BSONDocument] = [:]
            for start in stride(from: 0, to: ids.count, by: maxBatch) {
                let part = Array(ids[start..<min(start + maxBatch, ids.count)])
                found.merge(try await documents(part, in: collection, linger: linger)) { first, _ in first }
            }
            return found
        }
        guard !ids.isEmpty else { return [:] }
        return try await coalescer.run(ids, linger: linger) { requests in
            var seen: Set<String> = []
            var list: [BSONValue] = []
            for id in requests.joined() where seen.insert(id).inserted { list.append(.string(id)) }
            let filter: BSONDocument = list.count == 1 ? ["_id": list[0]] : ["_id": ["$in": .array(list)]]
            var found: [String: BSONDocument] = [:]
            for document in try await collection.find(filter) {
                if let id = document.string("_id") { found[id] = document }
            }
            // A caller alone asked for everything that was read.
            guard requests.count > 1 else { return [.success(found)] }
            return requests.map { .success(Self.only($0, of: found)) }
        }
    }

    /// The documents of `found` whose id is one of `ids`: one lookup per id, and each document kept
    /// shares its storage with `found`'s.
    static func only(_ ids: [String], of found: [String: BSONDocument]) -> [String: BSONDocument] {
        var mine: [String: BSONDocument] = [:]
        mine.reserveCapacity(ids.count)
        for id in ids {
            if let document = found[id] { mine[id] = document }
        }
        return mine
    }
}
