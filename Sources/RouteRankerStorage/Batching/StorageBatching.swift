import Mongo

/// How RouteRanker's hot commands share round trips with concurrent requests: how many commands of
/// each kind may be under way at once, and how much one carries. Each kind of coalesced command
/// (`Batchers`) takes its limits from here.
enum StorageBatching {
    /// How many commands of one coalescer may be under way at once, and the most weight (ids,
    /// documents, statements) one command carries.
    struct Limits: Sendable {
        var maxInFlight: Int
        var maxBatch: Int
    }

    // One query under way per collection, while the next batch gathers: measured with 16
    // connections on a friend's route read, one in flight gave batches twice as large and 0.150 ms
    // of CPU per request, two 0.169 ms, four 0.243 ms (docs/performance.md). A long `$in` costs
    // SecantusDB time quadratic in its length (1,000 ids: 700 ms; ten lists of 100: 107 ms): at
    // most 100 ids per query.
    /// `documents(ids:)`: ids per query.
    static let reads = Limits(maxInFlight: 1, maxBatch: idsPerQuery)
    /// `documents(ids:with:ids:)`, a request's caller and route (and the route's owner): as the
    /// reads of one collection.
    static let jointReads = Limits(maxInFlight: 1, maxBatch: idsPerQuery)
    /// `aggregateCoalesced`, inbox pages: a batch is bounded by the documents its callers expect,
    /// 1,000 (about 45 pages of 20, or 5 of 200), so that one reply, held whole until every caller
    /// is answered, stays a few pages' worth.
    static let aggregates = Limits(maxInFlight: 1, maxBatch: 1_000)
    /// `insertOneCoalesced`, point buckets: a bucket is 1,000 points, and every caller in a batch
    /// waits for the whole command, so at most 16 buckets per insert.
    static let inserts = Limits(maxInFlight: 1, maxBatch: 16)
    /// `updateOneCoalesced` and `upsertOneCoalesced`, route commits: small `$set`s of the route
    /// document, 64 per update (the two gather apart, each with this limit).
    static let updates = Limits(maxInFlight: 1, maxBatch: 64)
    /// `updateOneCoalesced(…afterStoring:…)`, an append's last bucket with its commit: weighed like
    /// the bucket inserts.
    static let commits = Limits(maxInFlight: 1, maxBatch: 16)
    /// The most ids one `_id: {$in: …}` query asks for (`find(ids:)` and the coalesced reads).
    static let idsPerQuery = 100

    /// The rule of the bucket-then-commit write (`RouteRepository.commit`): a bucket's `_id` names
    /// the request that wrote it, which no other writer uses, so a duplicate key means this very
    /// write stored it on an earlier attempt.
    @Sendable static func bucketAlreadyStored(_ error: MongoError) -> Bool {
        if case .duplicateKey = error { return true }
        return false
    }
}

extension BulkUpdateOutcome {
    /// Whether the statements that went through matched: true when all did, false when none did,
    /// nil when the reply cannot say (it counts matches only in total). For updates whose
    /// statements, when they match, always change the document: a caller told nil finds out itself
    /// (say, by a value its update set).
    var verdict: Bool? {
        let applied = errors.count { $0 == nil }
        return matched == applied ? true : matched == 0 ? false : nil
    }
}
