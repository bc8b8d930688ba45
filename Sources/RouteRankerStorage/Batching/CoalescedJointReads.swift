import Mongo

/// Reads documents by `_id` from two collections in one round trip, sharing it with the same reads
/// that other requests ask for at the same moment (`Coalescer`), as `CoalescedReads` does for one
/// collection: the ids asked for meanwhile gather into one pending batch, read with one `aggregate`
/// on the first collection, `_id: {$in: …}`, and a `$unionWith` of the second, `_id: {$in: …}`.
/// The second collection's documents are tagged (`tag`) on the way, and untagged before they are
/// handed back.
///
/// Nothing is cached: a caller joins only a batch that has not been sent, so every document it gets
/// was read after it asked. Each caller gets the documents of its own ids and no others, as with
/// `CoalescedReads`.
final class CoalescedJointReads: Sendable {
    /// The field that marks the documents of the second collection in the output; no stored
    /// document has it.
    static let tag = "__coalesced_second"

    typealias Found = (first: [String: BSONDocument], second: [String: BSONDocument])

    private let coalescer: Coalescer<[[String]], [[String: BSONDocument]]>

    /// The most ids (of both collections) one command asks for; a caller asking for more is
    /// refused by a precondition (the callers ask for two or three).
    var maxBatch: Int { coalescer.maxBatch }

    /// How many commands this reader has sent (each serving one batch).
    var commandsSent: Int { coalescer.commandsSent }

    init(maxInFlight: Int, maxBatch: Int, maxWaiting: Int) {
        coalescer = Coalescer(
            maxInFlight: maxInFlight, maxBatch: maxBatch, maxWaiting: maxWaiting, weight: { $0[0].count + $0[1].count })
    }

    /// The documents of `first` whose `_id` is one of `firstIDs` and those of `second` whose `_id`
    /// is one of `secondIDs` (strings), each by `_id`; ids with no document are absent. Either list
    /// may repeat ids. Each result holds only documents of its ids, though the command read other
    /// callers' too.
    func documents(
        _ firstIDs: [String], in first: MongoCollection, _ secondIDs: [String], in second: MongoCollection
    ) async throws -> Found {
        precondition(firstIDs.count + secondIDs.count <= maxBatch, "a joint read asks for a few ids")
        let found = try await coalescer.run([firstIDs, secondIDs]) { requests in
            let wanted = [0, 1].map { side in Self.distinct(requests.map { $0[side] }) }
            let pipeline: [BSONDocument] = [
                ["$match": Self.filter(wanted[0])],
                [
                    "$unionWith": [
                        "coll": .string(second.name),
                        "pipeline": [["$match": Self.filter(wanted[1])], ["$set": [Self.tag: true]]],
                    ]
                ],
            ]
            var found: [[String: BSONDocument]] = [[:], [:]]
            for var document in try await first.aggregate(pipeline, firstBatch: wanted[0].count + wanted[1].count) {
                guard let id = document.string("_id") else { continue }
                if document.contains(Self.tag) {
                    document[Self.tag] = nil
                    found[1][id] = document
                } else {
                    found[0][id] = document
                }
            }
            // A caller alone asked for everything that was read.
            guard requests.count > 1 else { return [.success(found)] }
            return requests.map { request in
                .success([CoalescedReads.only(request[0], of: found[0]), CoalescedReads.only(request[1], of: found[1])])
            }
        }
        return (found[0], found[1])
    }

    /// The ids of all `lists`, each once, in order of first asking.
    private static func distinct(_ lists: [[String]]) -> [BSONValue] {
        var seen: Set<String> = []
        var list: [BSONValue] = []
        for id in lists.joined() where seen.insert(id).inserted { list.append(.string(id)) }
        return list
    }

    /// `_id` equal to the one id, or in the list (an `$in` of one costs SecantusDB more).
    private static func filter(_ ids: [BSONValue]) -> BSONValue {
        .document(ids.count == 1 ? ["_id": ids[0]] : ["_id": ["$in": .array(ids)]])
    }
}
