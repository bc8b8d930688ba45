/// How each kind of coalesced command gathers its callers: a mechanism setting, chosen by the code
/// that knows what its requests cost (the application's storage layer), not by this wrapper. The
/// defaults are neutral: one command under way, and modest batches.
public struct CoalescingPolicy: Sendable {
    /// How many commands of one coalescer may be under way at once, and the most weight (ids,
    /// documents, statements) one command carries.
    public struct Limits: Sendable {
        public var maxInFlight: Int
        public var maxBatch: Int

        public init(maxInFlight: Int = 1, maxBatch: Int) {
            self.maxInFlight = maxInFlight
            self.maxBatch = maxBatch
        }
    }

    /// `MongoCollection.documents(ids:)`: ids per query.
    public var reads = Limits(maxBatch: 100)
    /// `MongoCollection.documents(ids:with:ids:)`: ids of both collections per command.
    public var jointReads = Limits(maxBatch: 100)
    /// `MongoCollection.aggregateCoalesced`: documents the batch's callers expect, per command.
    public var aggregates = Limits(maxBatch: 1_000)
    /// `MongoCollection.insertOneCoalesced`: documents per `insert`.
    public var inserts = Limits(maxBatch: 16)
    /// `MongoCollection.updateOneCoalesced(filter:update:)` and `upsertOneCoalesced`: statements
    /// per `update` (the two gather apart, each with this limit).
    public var updates = Limits(maxBatch: 64)
    /// `MongoCollection.updateOneCoalesced(filter:update:afterStoring:in:)`: documents and
    /// statements per batch.
    public var commits = Limits(maxBatch: 16)

    public init() {}
}
