import Mongo

/// Runs aggregation pipelines on one collection, sharing a round trip with the pipelines that other
/// requests run at the same moment (`Coalescer`): while one is under way, the pipelines asked for
/// meanwhile gather into one pending batch, sent as a single `aggregate` as soon as the one before
/// it is done. Pipelines asked for more than once in a batch run once.
///
/// The batch's pipelines are chained with `$unionWith` on the same collection, each followed by a
/// stage that tags its output with its place in the batch (`tag`), so every part keeps its own
/// index use, its own order and its own output; the tag is taken off before the documents are
/// handed back. A lone pipeline runs as it is.
///
/// Nothing is cached: a caller joins only a batch that has not been sent yet, so what it gets was
/// read after it asked, exactly as with an `aggregate` of its own.
final class CoalescedAggregates: Sendable {
    /// The field that tags each document of a combined pipeline's output with the pipeline it came
    /// from; no stored document has it.
    static let tag = "__coalesced_pipeline"

    private let coalescer: Coalescer<Request, [BSONDocument]>

    private struct Request: Sendable {
        let pipeline: [BSONDocument]
        /// How many documents the pipeline is expected to return, to size the first reply.
        let expected: Int
    }

    /// How many aggregates of this collection may be under way at once; further callers gather.
    var maxInFlight: Int { coalescer.maxInFlight }

    /// How many commands this runner has sent (each serving one batch).
    var commandsSent: Int { coalescer.commandsSent }

    /// `maxBatch` bounds the documents one command is expected to return (the callers' `expected`,
    /// summed); a caller expecting more than that goes alone.
    init(maxInFlight: Int, maxBatch: Int, maxWaiting: Int) {
        coalescer = Coalescer(
            maxInFlight: maxInFlight, maxBatch: maxBatch, maxWaiting: maxWaiting, weight: { max($0.expected, 1) })
    }

    /// The output of `pipeline` on `collection` (the one this runner is for), in its order.
    /// `expected` is about how many documents it returns (it sizes the first reply; more are read
    /// with `getMore` as usual). The pipeline must not write (`$out`, `$merge`).
    func aggregate(_ pipeline: [BSONDocument], expected: Int, in collection: MongoCollection) async throws
        -> [BSONDocument]
    {
        try await coalescer.run(Request(pipeline: pipeline, expected: expected)) { requests in
            var distinct: [Request] = []
            let place = requests.map { request in
                if let found = distinct.firstIndex(where: { $0.pipeline == request.pipeline }) { return found }
                distinct.append(request)
                return distinct.count - 1
            }
            let firstBatch = min(distinct.reduce(0) { $0 + max($1.expected, 1) }, 10_000)
            guard distinct.count > 1 else {
                let output = try await collection.aggregate(distinct[0].pipeline, firstBatch: firstBatch)
                return Array(repeating: .success(output), count: requests.count)
            }
            var combined = distinct[0].pipeline + [Self.tagging(0)]
            for index in distinct.indices.dropFirst() {
                combined.append([
                    "$unionWith": [
                        "coll": .string(collection.name),
                        "pipeline": .array((distinct[index].pipeline + [Self.tagging(index)]).map(BSONValue.document)),
                    ]
                ])
            }
            var parts = Array(repeating: [BSONDocument](), count: distinct.count)
            for document in try await collection.aggregate(combined, firstBatch: firstBatch) {
                guard let index = document.int(Self.tag), parts.indices.contains(index) else { continue }
                var document = document
                document[Self.tag] = nil
                parts[index].append(document)
            }
            return place.map { .success(parts[$0]) }
        }
    }

    private static func tagging(_ index: Int) -> BSONDocument {
        ["$set": [tag: .int(index)]]
    }
}
