import Mongo

/// How RouteRanker's hot commands share round trips with concurrent requests: the policy behind
/// the driver wrapper's coalescing mechanism (`CoalescingPolicy`), in this application's terms.
enum StorageBatching {
    /// The limits the storage's client is made with.
    static let policy: CoalescingPolicy = {
        var policy = CoalescingPolicy()
        // One query under way per collection, while the next batch gathers: measured with 16
        // connections on a friend's route read, one in flight gave batches twice as large and
        // 0.150 ms of CPU per request, two 0.169 ms, four 0.243 ms (docs/performance.md). A long
        // `$in` costs SecantusDB time quadratic in its length: at most 100 ids per query.
        policy.reads = .init(maxInFlight: 1, maxBatch: 100)
        // A request's caller and route (and the route's owner): as the reads of one collection.
        policy.jointReads = .init(maxInFlight: 1, maxBatch: 100)
        // Inbox pages: a batch is bounded by the documents its callers expect, 1,000 (about 45
        // pages of 20, or 5 of 200), so that one reply, held whole until every caller is
        // answered, stays a few pages' worth.
        policy.aggregates = .init(maxInFlight: 1, maxBatch: 1_000)
        // Point buckets: a bucket is 1,000 points, and every caller in a batch waits for the whole
        // command, so at most 16 buckets per insert.
        policy.inserts = .init(maxInFlight: 1, maxBatch: 16)
        // Route commits: small `$set`s of the route document, 64 per update.
        policy.updates = .init(maxInFlight: 1, maxBatch: 64)
        // An append's last bucket with its commit: weighed like the bucket inserts.
        policy.commits = .init(maxInFlight: 1, maxBatch: 16)
        return policy
    }()

    /// The rule of the bucket-then-commit write (`RouteRepository.commit`): a bucket's `_id` names
    /// the request that wrote it, which no other writer uses, so a duplicate key means this very
    /// write stored it on an earlier attempt.
    @Sendable static func bucketAlreadyStored(_ error: MongoError) -> Bool {
        if case .duplicateKey = error { return true }
        return false
    }
}
