import Mongo
import Synchronization

/// Shares one database command among the callers that ask for the same kind of work at the same
/// moment: while a command is under way, the requests that arrive meanwhile gather into one pending
/// batch, sent as one command as soon as the one before it is done. A caller alone goes straight to
/// the database, so nothing waits on a timer and an idle server answers as before; under load, many
/// requests share each command, which is where the database's per-command work and this process's
/// thread wake-ups went.
///
/// A caller joins only a batch that has not been sent, so whatever it gets was done after it asked:
/// nothing is cached, and nothing is acknowledged before the command that carries it is.
///
/// Whoever's command ends answers its batch and hands the next pending batch to that batch's first
/// caller, who sends it on its own thread and hands on in turn: no thread exists for batching, and
/// none blocks but inside the command.
///
/// The command is given by each caller (`run(_:send:)`), the sender's own is used: a coalescer
/// keeps no `MongoCollection` (whose client keeps the coalescer), so they hold no reference cycle.
final class Coalescer<Request: Sendable, Answer: Sendable>: Sendable {
    /// Sends one batch: the answer to each request, in order; throws when the command failed as a
    /// whole, which is then every request's answer.
    typealias Command = @Sendable ([Request]) async throws -> [Result<Answer, any Error>]

    /// How many commands may be under way at once; further callers gather.
    let maxInFlight: Int
    /// The most weight (`weight` of its requests, summed) one batch carries; a request that would
    /// take a batch past it starts the next.
    let maxBatch: Int
    /// The most callers that may wait in pending batches; past that, a caller is refused at once
    /// (`MongoError.overloaded`), as the pool refuses calls past its own bound on waiting.
    let maxWaiting: Int
    private let weight: @Sendable (Request) -> Int
    /// The clock a lingering caller waits on (`run(_:linger:send:)`).
    private let clock: any Clock<Duration>
    private let state = Mutex(State())
    private let sent = Atomic<Int>(0)

    /// How many commands have been sent (each serving one batch).
    var commandsSent: Int { sent.load(ordering: .relaxed) }

    /// How many callers wait in pending batches.
    var callersWaiting: Int { state.withLock { $0.waiting } }

    private struct State {
        var inFlight = 0
        /// Batches not yet sent, oldest first; only the last one takes more callers.
        var pending: [Batch] = []
        /// Callers waiting in `pending`.
        var waiting = 0
    }

    /// Requests to send together, and who waits for each answer: `waiters[i]` for `requests[i]`.
    /// The first request is the sender's; its waiter is nil when it never waited (it was alone).
    private struct Batch: Sendable {
        var requests: [Request] = []
        var waiters: [CheckedContinuation<Outcome, any Error>?] = []
        var weight = 0
    }

    /// What a caller who found a command under way does next.
    private enum Next { case send, wait, refuse }

    /// What a waiting caller is resumed with: its answer, or the batch to send.
    private enum Outcome: Sendable {
        case answer(Answer)
        case send(Batch)
    }

    /// `clock`: what a lingering caller waits on; the storage's coalescers wait on its client's
    /// (`MongoPoolClock`), which wakes fewer threads than `Task.sleep`, and tests move one by hand.
    init(
        maxInFlight: Int, maxBatch: Int, maxWaiting: Int,
        clock: any Clock<Duration> = ContinuousClock(),
        weight: @escaping @Sendable (Request) -> Int = { _ in 1 }
    ) {
        precondition(maxInFlight > 0 && maxBatch > 0, "a coalescer needs room for one command of one request")
        self.maxInFlight = maxInFlight
        self.maxBatch = maxBatch
        self.maxWaiting = maxWaiting
        self.clock = clock
        self.weight = weight
    }

    /// The answer to `request`, sent with the requests of concurrent callers (by `command`, or by
    /// another caller's, which does the same).
    ///
    /// `linger`: how long a caller that finds nobody to share with waits for company before it
    /// sends (zero, or a coalescer with more than one command in flight: it sends at once).
    /// Callers that arrive meanwhile join its batch. For requests
    /// that come at a steady, moderate rate (phones reporting every few seconds) the natural
    /// gathering behind a command under way seldom happens; a few milliseconds of waiting then
    /// turn several commands, each a round trip, a journal commit and thread wake-ups, into one.
    func run(_ request: Request, linger: Duration = .zero, send command: Command) async throws -> Answer {
        let alone = state.withLock { state in
            guard state.inFlight < maxInFlight, state.pending.isEmpty else { return false }
            state.inFlight += 1
            return true
        }
        if alone {
            let batch = Batch(requests: [request], waiters: [nil], weight: weight(request))
            // Only with one command in flight at most: then none can end while this caller
            // lingers and hand its pending batch, whose sender is waiting here, to nobody.
            guard linger > .zero, maxInFlight == 1 else { return try await send(batch, command) }
            return try await send(try await gathered(batch, for: linger), command)
        }
        let requestWeight = weight(request)
        let outcome = try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Outcome, any Error>) in
            let next = state.withLock { state -> Next in
                // Everything in flight may have ended since the look above: then nobody would send
                // a pending batch, so this caller sends its own.
                if state.inFlight < maxInFlight, state.pending.isEmpty {
                    state.inFlight += 1
                    return .send
                }
                guard state.waiting < maxWaiting else { return .refuse }
                if state.pending.isEmpty || state.pending[state.pending.count - 1].weight + requestWeight > maxBatch {
                    state.pending.append(Batch())
                }
                state.pending[state.pending.count - 1].requests.append(request)
                state.pending[state.pending.count - 1].waiters.append(waiter)
                state.pending[state.pending.count - 1].weight += requestWeight
                state.waiting += 1
                return .wait
            }
            switch next {
            case .send:
                waiter.resume(returning: .send(Batch(requests: [request], waiters: [waiter], weight: requestWeight)))
            case .refuse:
                waiter.resume(throwing: MongoError.overloaded(waiting: maxWaiting))
            case .wait:
                break
            }
        }
        switch outcome {
        case .answer(let answer): return answer
        case .send(let batch): return try await send(batch, command)
        }
    }

    /// `batch` (this caller's alone, its slot in flight already counted) with the callers who
    /// joined it while this caller waited `linger`: it is the pending batch meanwhile, so that
    /// they find it (a slot in flight and a pending batch make them wait, not send).
    private func gathered(_ batch: Batch, for linger: Duration) async throws -> Batch {
        state.withLock { $0.pending.insert(batch, at: 0) }
        // A sleep that ends early (cancelled) only sends the batch sooner.
        try? await clock.sleep(for: linger)
        return state.withLock { state in
            let gathered = state.pending.removeFirst()
            // The callers who joined were counted as waiting; this caller, the sender, was not.
            state.waiting -= gathered.waiters.count - 1
            return gathered
        }
    }

    /// Sends `batch` (this caller's slot in flight already counted), answers its other callers,
    /// and hands the next pending batch on; returns or throws this caller's answer.
    private func send(_ batch: Batch, _ command: Command) async throws -> Answer {
        sent.add(1, ordering: .relaxed)
        let answers: Result<[Result<Answer, any Error>], any Error>
        do {
            let each = try await command(batch.requests)
            precondition(each.count == batch.requests.count, "a coalesced command answers every request")
            answers = .success(each)
        } catch {
            answers = .failure(error)
        }
        func answer(_ index: Int) -> Result<Answer, any Error> { answers.flatMap { $0[index] } }
        // The first waiter, if any, is this caller (it was resumed to send); the rest wait.
        for index in batch.waiters.indices.dropFirst() {
            batch.waiters[index]?.resume(with: answer(index).map(Outcome.answer))
        }
        // A database that did not answer refuses the batches queued behind this command at once,
        // as `MongoClient` refuses calls queued for a client meanwhile: each would otherwise wait
        // its own server selection timeout in turn.
        let unavailable: (any Error)?
        if case .failure(let error) = answers, case MongoError.unavailable = error {
            unavailable = error
        } else {
            unavailable = nil
        }
        let (next, refused) = state.withLock { state -> (Batch?, [Batch]) in
            if unavailable != nil {
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
        if let unavailable {
            for waiter in refused.flatMap(\.waiters) { waiter?.resume(throwing: unavailable) }
        }
        if let next, let sender = next.waiters.first ?? nil {
            sender.resume(returning: .send(next))
        }
        return try answer(0).get()
    }
}
