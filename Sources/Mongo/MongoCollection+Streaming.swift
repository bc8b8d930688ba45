extension MongoCollection {
    /// Streams a find in batches of up to `batchSize` documents to `body`, which runs on the pool thread
    /// inside the job (so it must not block on anything slow, and cannot `await`). Memory holds one
    /// batch at a time. `body` may throw to stop early; the error is rethrown.
    public func findBatches(
        _ filter: BSONDocument = [:], sort: BSONDocument? = nil, projection: BSONDocument? = nil,
        batchSize: Int = 100, _ body: @escaping @Sendable ([BSONDocument]) throws -> Void
    ) async throws {
        let size = max(1, batchSize)
        let options = Self.findOptions(sort: sort, skip: 0, limit: 0, projection: projection, batchSize: size)
        try await run { try $0.find(filter, options: options, batchSize: size, body) }
    }

    /// A find as an async sequence of batches of up to `batchSize` documents, for consumers that
    /// `await` between batches (e.g. writing an HTTP response).
    ///
    /// One pool job (one thread, one client) reads the cursor while the sequence is iterated, at most
    /// one batch ahead of the consumer, so memory stays bounded for any result size. The job ends when
    /// the cursor is exhausted, when the iterating task is cancelled or drops its iterator, or when the
    /// consumer leaves it waiting longer than `stallTimeout` seconds (then `next()` throws), so a
    /// stalled consumer cannot hold a pool thread for ever. Iterate it once.
    public func findStream(
        _ filter: BSONDocument = [:], sort: BSONDocument? = nil, projection: BSONDocument? = nil,
        batchSize: Int = 100, stallTimeout: Double = 30
    ) -> MongoBatchStream {
        let size = max(1, batchSize)
        let options = Self.findOptions(sort: sort, skip: 0, limit: 0, projection: projection, batchSize: size)
        return MongoBatchStream(stallTimeout: stallTimeout) { channel in
            try await run { operations in
                try operations.find(filter, options: options, batchSize: size) { batch in
                    try channel.send(batch)
                }
            }
        }
    }
}

/// Batches of documents from a cursor read by one pool job; see `MongoCollection.findStream`.
public struct MongoBatchStream: AsyncSequence, Sendable {
    public typealias Element = [BSONDocument]

    let stallTimeout: Double
    let produce: @Sendable (BatchChannel) async throws -> Void

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(box: IteratorBox(channel: BatchChannel(stallTimeout: stallTimeout), produce: produce))
    }

    /// Pulls the next batch; the first call starts the job.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let box: IteratorBox

        public mutating func next() async throws -> [BSONDocument]? {
            try await box.next()
        }
    }
}

/// Owns the channel for one iteration and cancels it when the iterator goes away unfinished, which ends
/// the producing job.
///
/// `@unchecked Sendable`: `started` is only touched by the iterating task (iterators are not shared);
/// the channel is thread-safe.
final class IteratorBox: @unchecked Sendable {
    let channel: BatchChannel
    let produce: @Sendable (BatchChannel) async throws -> Void
    private var started = false

    init(channel: BatchChannel, produce: @escaping @Sendable (BatchChannel) async throws -> Void) {
        self.channel = channel
        self.produce = produce
    }

    func next() async throws -> [BSONDocument]? {
        if !started {
            started = true
            let channel = self.channel
            let produce = self.produce
            // The producer is a task of its own so it can outlive one next() call; it awaits the pool job.
            Task {
                do {
                    try await produce(channel)
                    channel.finish(nil)
                } catch {
                    channel.finish(error)
                }
            }
        }
        return try await channel.receive()
    }

    deinit { channel.cancel() }
}
