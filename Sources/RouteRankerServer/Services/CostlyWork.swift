import Synchronization

/// Where costly request work runs (API.md: "No request, valid or not, stops the server or slows
/// another user's cheap request beyond a second"): comparing routes (`similar`, groups made
/// `similar_to`), drawing pictures, reading big uploads.
///
/// - Off the shared threads: the work runs on ``CostlyThreads`` (one thread on 2 cores, at a lower
///   priority), so cheap requests keep the database pool's threads and most of the CPU.
/// - Bounded per user: a user has at most ``perUser`` costly requests running or waiting; one more
///   is `429` with `Retry-After` at once (``Busy``), so that nobody queues without bound.
/// - Fair between users: at most ``slots`` run at once; when one ends, the slot goes to the user
///   who has waited for one longest in turn (round-robin over users with waiting work), so a user
///   with many requests waiting delays another's by at most one of theirs per round.
///
/// The gate is a pure state machine (``Gate``) driven by continuations, so tests step it without
/// threads or sleeps.
final class CostlyWork: Sendable {
    /// The most costly requests of one user running or waiting at once.
    static let defaultPerUser = 2
    /// How long a refused client should wait.
    static let retryAfterSeconds = 1

    let threads: CostlyThreads
    private let gate: Mutex<Gate<CheckedContinuation<Void, any Error>>>

    /// `slots` at once (default: two per thread, so that one waiting on the database does not
    /// leave its thread idle), `perUser` each.
    init(threads: CostlyThreads, slots: Int? = nil, perUser: Int = defaultPerUser) {
        self.threads = threads
        gate = Mutex(Gate(slots: slots ?? 2 * CostlyThreads.defaultCount, perUser: perUser))
    }

    /// Too many costly requests of this user are in flight.
    struct Busy: Error, Sendable {
        var perUser: Int
    }

    /// Runs `work` for `user` on the costly threads once a slot is free; throws ``Busy`` at once
    /// when `user` already has ``perUser`` requests running or waiting.
    func run<T: Sendable>(user: String, _ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire(user)
        defer { release(user) }
        try Task.checkCancellation()
        return try await withTaskExecutorPreference(threads) { try await work() }
    }

    /// Runs `work` on the costly threads without a slot or a per-user count: for a page for people
    /// without an account (the link page), which should wait its turn rather than answer `429` to
    /// the third friend who opens a link at once. The threads still keep it off the database
    /// pool's threads that cheap requests need.
    func runUnbounded<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(threads) { try await work() }
    }

    /// How many of `user`'s costly requests run or wait now (tests, metrics).
    func inFlight(_ user: String) -> Int {
        gate.withLock { $0.inFlight[user, default: 0] }
    }

    private func acquire(_ user: String) async throws {
        let id = Ticket()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = gate.withLock { $0.enter(user, ticket: id, waiter: continuation) }
                switch outcome {
                case .run: continuation.resume()
                case .wait: break
                case .refused(let perUser): continuation.resume(throwing: Busy(perUser: perUser))
                }
            }
        } onCancel: {
            let waiter = gate.withLock { $0.leave(user, ticket: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func release(_ user: String) {
        let next = gate.withLock { $0.finish(user) }
        next?.resume()
    }

    /// One waiting request, so that a cancelled one can leave its queue.
    final class Ticket: Sendable {}

    /// The state of the slots: who runs, who waits, whose turn is next. `Waiter` is what wakes a
    /// waiting request (a continuation; anything in tests).
    struct Gate<Waiter: Sendable>: Sendable {
        enum Outcome: Equatable {
            case run
            case wait
            case refused(perUser: Int)
        }

        let slots: Int
        let perUser: Int
        private(set) var running = 0
        /// Running and waiting, per user.
        private(set) var inFlight: [String: Int] = [:]
        /// Each user's waiting requests, oldest first.
        private var waiting: [String: [(ticket: Ticket, waiter: Waiter)]] = [:]
        /// Users with waiting requests, in turn order.
        private(set) var turns: [String] = []

        init(slots: Int, perUser: Int) {
            self.slots = max(1, slots)
            self.perUser = max(1, perUser)
        }

        /// A request of `user` arrives: it runs, waits its turn, or is refused.
        mutating func enter(_ user: String, ticket: Ticket, waiter: Waiter) -> Outcome {
            let mine = inFlight[user, default: 0]
            guard mine < perUser else { return .refused(perUser: perUser) }
            inFlight[user] = mine + 1
            if running < slots {
                running += 1
                return .run
            }
            if waiting[user, default: []].isEmpty { turns.append(user) }
            waiting[user, default: []].append((ticket, waiter))
            return .wait
        }

        /// A request of `user` ends; returns the waiter whose turn it is now (its slot handed over).
        mutating func finish(_ user: String) -> Waiter? {
            decrement(user)
            guard !turns.isEmpty else {
                running -= 1
                return nil
            }
            let next = turns.removeFirst()
            var queue = waiting[next, default: []]
            let first = queue.removeFirst()
            waiting[next] = queue.isEmpty ? nil : queue
            if !queue.isEmpty { turns.append(next) }
            return first.waiter
        }

        /// A waiting request was cancelled: it leaves its queue (its waiter is returned, to be
        /// resumed with the cancellation); nil when it already runs.
        mutating func leave(_ user: String, ticket: Ticket) -> Waiter? {
            guard var queue = waiting[user], let index = queue.firstIndex(where: { $0.ticket === ticket }) else {
                return nil
            }
            let removed = queue.remove(at: index)
            waiting[user] = queue.isEmpty ? nil : queue
            if queue.isEmpty { turns.removeAll { $0 == user } }
            decrement(user)
            return removed.waiter
        }

        private mutating func decrement(_ user: String) {
            let left = inFlight[user, default: 1] - 1
            inFlight[user] = left > 0 ? left : nil
        }
    }
}
