import Synchronization

/// Reads documents of one collection by `_id`, sharing a round trip with the reads that other
/// requests ask for at the same moment: while a read of this collection is under way, the ids
/// asked for meanwhile gather into one pending batch, read with a single `_id: {$in: …}` query as
/// soon as the read before it is done. A caller alone goes straight to the database, so nothing
/// waits on a timer and an idle server answers as before; under load, many requests share each
/// query, which is where the database's per-command work and this process's thread wake-ups went.
///
/// Nothing is cached. A caller joins only a batch that has not been sent yet, so every document it
/// gets was read after it asked: a rotated token, a revoked share or a deleted route is seen by
/// every request that arrives after the change was acknowledged, exactly as with a query of its own.
///
/// Whoever's read ends hands the next pending batch to its first caller, who sends it on its own
/// thread and hands on in turn: no thread exists for batching, and none blocks but inside the query.
///
/// It keeps no `MongoCollection` (whose client keeps it): each caller passes its own, so the client
/// and its readers hold no reference cycle.
final class CoalescedReads: Sendable {
    /// How many reads of this collection may be under way at once; further callers gather.
    let maxInFlight: Int
    /// The most ids one query asks for: a long `$in` costs SecantusDB time quadratic in its length.
    /// A caller asking for more asks in parts.
    let maxBatch: Int
    /// The most callers that may wait in pending batches; past that, a caller is refused at once
    /// (`MongoError.overloaded`), as the pool refuses calls past its own bound on waiting.
    let maxWaiting: Int
    private let state = Mutex(State())
    private let sent = Atomic<Int>(0)

    /// How many queries this reader has sent (each serving one batch).
    var queriesSent: Int { sent.load(ordering: .relaxed) }

    /// How many callers wait in pending batches.
    var callersWaiting: Int { state.withLock { $0.waiting } }

    private struct State {
        var inFlight = 0
        /// Batches not yet sent, oldest first; only the last one takes more callers.
        var pending: [Batch] = []
        /// Callers waiting in `pending`.
        var waiting = 0
    }

    /// Ids to read together, and the callers waiting for them (the first one sends it).
    private struct Batch {
        var ids: [String] = []
        var seen: Set<String> = []
        var waiters: [CheckedContinuation<Outcome, any Error>] = []

        mutating func add(_ more: [String]) {
            for id in more where seen.insert(id).inserted { ids.append(id) }
        }
    }

    /// What a waiting caller is resumed with: the documents of its batch, or the batch to send.
    private enum Outcome: Sendable {
        case found([String: BSONDocument])
        case send(Batch)
    }

    init(maxInFlight: Int, maxBatch: Int, maxWaiting: Int) {
        precondition(maxInFlight > 0 && maxBatch > 0, "a coalesced read needs room for one query of one id")
        self.maxInFlight = maxInFlight
        self.maxBatch = maxBatch
        self.maxWaiting = maxWaiting
    }

    /// The documents of `collection` (the one this reader is for) whose `_id` is one of `ids`
    /// (strings), by `_id`; ids with no document are absent. `ids` may be empty (no read) and may
    /// repeat. The result may hold other callers' documents too.
    func documents(_ ids: [String], in collection: MongoCollection) async throws -> [String: BSONDocument] {
        guard ids.count <= maxBatch else {
            var found: [String: BSONDocument] = [:]
            for start in stride(from: 0, to: ids.count, by: maxBatch) {
                let part = Array(ids[start..<min(start + maxBatch, ids.count)])
                found.merge(try await documents(part, in: collection)) { first, _ in first }
            }
            return found
        }
        guard !ids.isEmpty else { return [:] }
        let alone = state.withLock { state in
            guard state.inFlight < maxInFlight, state.pending.isEmpty else { return false }
            state.inFlight += 1
            return true
        }
        if alone {
            var batch = Batch()
            batch.add(ids)
            return try await send(batch, collection)
        }
        let outcome = try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Outcome, any Error>) in
            enum Next { case send, wait, refuse }
            let next = state.withLock { state -> Next in
                // Everything in flight may have ended since the look above: then nobody would send
                // a pending batch, so this caller sends its own.
                if state.inFlight < maxInFlight, state.pending.isEmpty {
                    state.inFlight += 1
                    return .send
                }
                guard state.waiting < maxWaiting else { return .refuse }
                if state.pending.isEmpty || state.pending[state.pending.count - 1].ids.count + ids.count > maxBatch {
                    state.pending.append(Batch())
                }
                state.pending[state.pending.count - 1].add(ids)
                state.pending[state.pending.count - 1].waiters.append(waiter)
                state.waiting += 1
                return .wait
            }
            switch next {
            case .send:
                var batch = Batch()
                batch.add(ids)
                batch.waiters.append(waiter)
                waiter.resume(returning: .send(batch))
            case .refuse:
                waiter.resume(throwing: MongoError.overloaded(waiting: maxWaiting))
            case .wait:
                break
            }
        }
        switch outcome {
        case .found(let documents): return documents
        case .send(let batch): return try await send(batch, collection)
        }
    }

    /// Reads `batch` (this caller's slot in flight already counted), answers its other callers,
    /// and hands the next pending batch on; returns or throws what the read gave.
    private func send(_ batch: Batch, _ collection: MongoCollection) async throws -> [String: BSONDocument] {
        let result: Result<[String: BSONDocument], any Error>
        sent.add(1, ordering: .relaxed)
        do {
            let list = batch.ids.map(BSONValue.string)
            let filter: BSONDocument = list.count == 1 ? ["_id": list[0]] : ["_id": ["$in": .array(list)]]
            var found: [String: BSONDocument] = [:]
            for document in try await collection.find(filter) {
                if let id = document.string("_id") { found[id] = document }
            }
            result = .success(found)
        } catch {
            result = .failure(error)
        }
        // The first waiter, if any, is this caller (it was resumed to send); the rest wait.
        for waiter in batch.waiters.dropFirst() {
            waiter.resume(with: result.map(Outcome.found))
        }
        // A database that did not answer refuses the batches queued behind this read at once, as
        // `MongoClient` refuses calls queued for a client meanwhile: each would otherwise wait its
        // own server selection timeout in turn.
        let unavailable: Bool
        if case .failure(MongoError.unavailable) = result { unavailable = true } else { unavailable = false }
        let (next, refused) = state.withLock { state -> (Batch?, [Batch]) in
            if unavailable {
                defer {
                    state.pending.removeAll()
                    state.waiting = 0
                }
                state.inFlight -= 1
                return (nil, state.pending)
            }
            guard !state.pending.isEmpty else {
                state.inFlight -= 1
                return (nil, [])
            }
            let next = state.pending.removeFirst()
            state.waiting -= next.waiters.count
            return (next, [])
        }
        for waiter in refused.flatMap(\.waiters) {
            waiter.resume(with: result.map(Outcome.found))
        }
        if let next, let sender = next.waiters.first {
            sender.resume(returning: .send(next))
        }
        return try result.get()
    }
}
