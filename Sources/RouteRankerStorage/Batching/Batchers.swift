import Mongo
import Synchronization

/// The coalescers of one database client: one of each kind per collection, made on first use and
/// kept for the client's life (a `MongoClient` attachment), so that concurrent requests, whichever
/// repository they go through, find each other. Each takes its limits from `StorageBatching`,
/// bounds its waiting callers like the client's pool, and lingers on the client's clock.
final class Batchers: Sendable {
    private let maxWaiting: Int
    private let clock: any Clock<Duration>
    private let made = Mutex<[String: any Sendable]>([:])

    init(maxWaiting: Int, clock: any Clock<Duration>) {
        self.maxWaiting = maxWaiting
        self.clock = clock
    }

    /// The batchers of `client`.
    static func of(_ client: MongoClient) -> Batchers {
        client.attachment("RouteRankerStorage.Batchers") {
            Batchers(maxWaiting: client.maxWaiting, clock: client.clock)
        }
    }

    func reads(of collection: MongoCollection) -> CoalescedReads {
        let limits = StorageBatching.reads
        return coalescer("reads", collection) {
            CoalescedReads(
                maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting, clock: clock)
        }
    }

    func jointReads(of collection: MongoCollection, with other: MongoCollection) -> CoalescedJointReads {
        let limits = StorageBatching.jointReads
        return coalescer("joint-reads+" + other.name, collection) {
            CoalescedJointReads(maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting)
        }
    }

    func aggregates(of collection: MongoCollection) -> CoalescedAggregates {
        let limits = StorageBatching.aggregates
        return coalescer("aggregates", collection) {
            CoalescedAggregates(maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting)
        }
    }

    /// Each caller's document, in one unordered `insert` per batch.
    func inserts(of collection: MongoCollection) -> Coalescer<BSONDocument, Void> {
        let limits = StorageBatching.inserts
        return coalescer("inserts", collection) {
            Coalescer(maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting, clock: clock)
        }
    }

    /// Each caller's statement, in one unordered `update` per batch.
    func updates(of collection: MongoCollection) -> Coalescer<MongoCollection.UpdateStatement, Bool?> {
        let limits = StorageBatching.updates
        return coalescer("updates", collection) {
            Coalescer(maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting, clock: clock)
        }
    }

    /// Each caller's upsert, in one unordered `update` per batch (apart from `updates`, whose
    /// verdict counts matches).
    func upserts(of collection: MongoCollection) -> Coalescer<MongoCollection.UpdateStatement, Void> {
        let limits = StorageBatching.updates
        return coalescer("upserts", collection) {
            Coalescer(maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting, clock: clock)
        }
    }

    /// The commits of `collection` after inserts into `target`.
    func commits(of collection: MongoCollection, after target: MongoCollection) -> CoalescedCommits {
        let limits = StorageBatching.commits
        return coalescer("commits+" + target.database.name + "." + target.name, collection) {
            CoalescedCommits(
                maxInFlight: limits.maxInFlight, maxBatch: limits.maxBatch, maxWaiting: maxWaiting, clock: clock)
        }
    }

    /// The coalescer of `kind` for `collection`, made by `make` on first use.
    private func coalescer<C: Sendable>(_ kind: String, _ collection: MongoCollection, _ make: () -> C) -> C {
        let key = kind + ":" + collection.database.name + "." + collection.name
        return made.withLock { made in
            if let existing = made[key] as? C { return existing }
            let coalescer = make()
            made[key] = coalescer
            return coalescer
        }
    }
}
