import Mongo
import MongoTestSupport
import Synchronization
import TestSupport
import Testing

@testable import RouteRankerStorage

/// `Coalescer`'s batching policy, with a command that never reaches a database: each command it
/// sends is handed to the test (`GatedCommands`), which decides when and how it ends. Callers are
/// started one at a time, each once the one before it has sent or is waiting, so every step is in
/// an order the test chose; nothing waits on a clock. (The time limit only turns a hang into a
/// failure: every wait here gives up once the test is cancelled.)
@Suite(.timeLimit(.minutes(1))) struct CoalescerTests {
    @Test func aCallerAloneSendsItsRequestAtOnce() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 10, maxWaiting: 10)
        let commands = GatedCommands()
        let caller = commands.start(7, on: coalescer)
        let command = try await commands.next()
        #expect(command.requests == [7] && command.sender == 7)
        command.answer()
        #expect(try await caller.value == "answer 7")
        #expect(coalescer.commandsSent == 1 && coalescer.callersWaiting == 0)
    }

    /// Callers that arrive while a command is under way gather, in the order they came, and share
    /// the next command, sent by the first of them once the one before has ended; each gets the
    /// answer to its own request.
    @Test func callersArrivingMeanwhileShareTheNextCommand() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 10, maxWaiting: 10)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let gathered = try await commands.startWaiting(1...5, on: coalescer)
        #expect(coalescer.commandsSent == 1, "nothing more is sent while the command is under way")
        under.answer()
        #expect(try await first.value == "answer 0")
        let shared = try await commands.next()
        #expect(shared.requests == [1, 2, 3, 4, 5] && shared.sender == 1)
        #expect(coalescer.callersWaiting == 0)
        shared.answer()
        for (request, caller) in zip(1...5, gathered) { #expect(try await caller.value == "answer \(request)") }
        #expect(coalescer.commandsSent == 2)
    }

    /// A caller alone that lingers sends nothing until its time is up, and the callers who come
    /// meanwhile join its command, in order; afterwards a caller alone goes first again. The
    /// linger runs on a manual clock: nothing is sent a moment before its 2 s are up, and the batch
    /// goes the moment they are.
    @Test func aLingeringCallerTakesThoseWhoComeMeanwhile() async throws {
        let clock = ManualClock()
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 10, maxWaiting: 10, clock: clock)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer, linger: .seconds(2))
        await clock.waitForSleepers(1)
        let joined = try await commands.startWaiting(1...3, on: coalescer)
        clock.advance(by: .milliseconds(1_999))
        #expect(clock.sleepers == 1 && coalescer.commandsSent == 0, "nothing is sent while the first caller lingers")
        clock.advance(by: .milliseconds(1))
        let shared = try await commands.next()
        #expect(shared.requests == [0, 1, 2, 3] && shared.sender == 0)
        #expect(coalescer.callersWaiting == 0)
        shared.answer()
        #expect(try await first.value == "answer 0")
        for (request, caller) in zip(1...3, joined) { #expect(try await caller.value == "answer \(request)") }
        let alone = commands.start(4, on: coalescer, linger: .milliseconds(10))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10))
        let own = try await commands.next()
        #expect(own.requests == [4] && coalescer.commandsSent == 2)
        own.answer()
        #expect(try await alone.value == "answer 4")
    }

    /// Up to `maxInFlight` callers send commands of their own; the next ones gather, and the first
    /// command to end (whichever) sends their batch.
    @Test func upToMaxInFlightCommandsRunAtOnce() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 2, maxBatch: 10, maxWaiting: 10)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let a = try await commands.next()
        let second = commands.start(1, on: coalescer)
        let b = try await commands.next()
        #expect(a.requests == [0] && b.requests == [1])
        let gathered = try await commands.startWaiting(2...3, on: coalescer)
        #expect(coalescer.commandsSent == 2)
        b.answer()
        let c = try await commands.next()
        #expect(c.requests == [2, 3] && c.sender == 2)
        a.answer()
        c.answer()
        #expect(try await [first.value, second.value] == ["answer 0", "answer 1"])
        #expect(try await [gathered[0].value, gathered[1].value] == ["answer 2", "answer 3"])
        // Nothing is under way any more: a caller goes straight to the database again.
        let later = commands.start(4, on: coalescer)
        try await commands.next().answer()
        #expect(try await later.value == "answer 4")
        #expect(coalescer.commandsSent == 4)
    }

    /// A request that would take the pending batch past `maxBatch` (in weight) starts the next one;
    /// one that fills it exactly still joins it, and one heavier than `maxBatch` goes in a batch of
    /// its own. The batches are sent in turn, each by its first caller.
    @Test func batchesAreSplitAtMaxBatch() async throws {
        // Weights: a request's hundreds, at least 1.
        let coalescer = Coalescer<Int, String>(
            maxInFlight: 1, maxBatch: 3, maxWaiting: 10, weight: { max(1, $0 / 100) })
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let requests = [1, 2, 3, 400, 5, 200, 6, 7]
        let gathered = try await commands.startWaiting(requests, on: coalescer)
        under.answer()
        var sent: [[Int]] = []
        for _ in 0..<4 {
            let command = try await commands.next()
            #expect(command.sender == command.requests[0])
            sent.append(command.requests)
            command.answer()
        }
        #expect(sent == [[1, 2, 3], [400], [5, 200], [6, 7]])
        #expect(try await first.value == "answer 0")
        for (request, caller) in zip(requests, gathered) { #expect(try await caller.value == "answer \(request)") }
        #expect(coalescer.commandsSent == 5)
    }

    /// Past `maxWaiting` callers in pending batches, a caller is refused at once, while the command
    /// is still under way; the others are answered, and there is room again afterwards.
    @Test func callersPastMaxWaitingAreRefusedAtOnce() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 10, maxWaiting: 2)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let gathered = try await commands.startWaiting(1...2, on: coalescer)
        let refused = commands.start(3, on: coalescer)
        await #expect(throws: MongoError.overloaded(waiting: 2)) { try await refused.value }
        #expect(coalescer.callersWaiting == 2 && coalescer.commandsSent == 1)
        under.answer()
        let shared = try await commands.next()
        #expect(shared.requests == [1, 2])
        let again = try await commands.startWaiting([4], on: coalescer)
        shared.answer()
        try await commands.next().answer()
        #expect(try await first.value == "answer 0")
        #expect(try await gathered[0].value == "answer 1")
        #expect(try await gathered[1].value == "answer 2")
        #expect(try await again[0].value == "answer 4")
    }

    /// A command answers each request on its own: one request's failure is its caller's alone.
    @Test func aRequestThatFailsFailsOnlyItsCaller() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 10, maxWaiting: 10)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let gathered = try await commands.startWaiting(1...3, on: coalescer)
        under.answer()
        try await commands.next().answer { $0 == 2 ? .failure(Refused(request: 2)) : .success("answer \($0)") }
        #expect(try await first.value == "answer 0")
        #expect(try await gathered[0].value == "answer 1")
        await #expect(throws: Refused(request: 2)) { try await gathered[1].value }
        #expect(try await gathered[2].value == "answer 3")
    }

    /// A command that fails as a whole fails every caller of its batch (the sender too); the batch
    /// gathered behind it is still sent.
    @Test func aCommandThatFailsFailsItsBatchAndTheNextIsSent() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 2, maxWaiting: 10)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let gathered = try await commands.startWaiting(1...3, on: coalescer)
        under.answer()
        let failing = try await commands.next()
        #expect(failing.requests == [1, 2])
        failing.fail(MongoError.duplicateKey(message: "batch"))
        let next = try await commands.next()
        #expect(next.requests == [3])
        next.answer()
        #expect(try await first.value == "answer 0")
        for caller in gathered.prefix(2) {
            await #expect(throws: MongoError.duplicateKey(message: "batch")) { try await caller.value }
        }
        #expect(try await gathered[2].value == "answer 3")
        #expect(coalescer.commandsSent == 3)
    }

    /// A database that did not answer: the batches gathered behind the failed command are refused
    /// with its error at once, without a command of their own.
    @Test func anUnavailableDatabaseRefusesTheBatchesBehind() async throws {
        let coalescer = Coalescer<Int, String>(maxInFlight: 1, maxBatch: 2, maxWaiting: 10)
        let commands = GatedCommands()
        let first = commands.start(0, on: coalescer)
        let under = try await commands.next()
        let gathered = try await commands.startWaiting(1...5, on: coalescer)
        let down = MongoError.unavailable(message: "no server")
        under.fail(down)
        await #expect(throws: down) { try await first.value }
        for caller in gathered { await #expect(throws: down) { try await caller.value } }
        #expect(coalescer.commandsSent == 1 && coalescer.callersWaiting == 0)
        // The next caller finds nothing under way and tries the database again.
        let later = commands.start(6, on: coalescer)
        try await commands.next().answer()
        #expect(try await later.value == "answer 6")
    }
}

/// A request's own failure, as a command might report it.
private struct Refused: Error, Equatable {
    let request: Int
}

/// Commands that the test ends: each one the coalescer sends is handed over by `next()`, with the
/// caller whose command it is, and waits until the test answers or fails it.
private final class GatedCommands: Sendable {
    /// A command under way, waiting for the test.
    struct Sent: Sendable {
        let requests: [Int]
        /// The caller whose `send` closure the coalescer used.
        let sender: Int
        let reply: CheckedContinuation<[Result<String, any Error>], any Error>

        /// Ends the command with `answer(request)` for each request ("answer N" by default).
        func answer(_ answer: (Int) -> Result<String, any Error> = { .success("answer \($0)") }) {
            reply.resume(returning: requests.map(answer))
        }

        /// Ends the command with a failure of the whole command.
        func fail(_ error: any Error) {
            reply.resume(throwing: error)
        }
    }

    /// Commands sent that `next()` has not handed over yet.
    private let queue = Mutex<[Sent]>([])

    /// The command that caller `sender` gives the coalescer.
    func command(sender: Int) -> Coalescer<Int, String>.Command {
        { [self] requests in
            try await withCheckedThrowingContinuation { reply in
                let sent = Sent(requests: requests, sender: sender, reply: reply)
                queue.withLock { $0.append(sent) }
            }
        }
    }

    /// A caller that asks for `request`, sending with a command of its own.
    func start(_ request: Int, on coalescer: Coalescer<Int, String>, linger: Duration = .zero) -> Caller {
        Caller { try await coalescer.run(request, linger: linger, send: self.command(sender: request)) }
    }

    /// Callers for `requests`, each started once the one before waits in a pending batch, so that
    /// they gather in this order; returns once they all wait.
    func startWaiting(_ requests: some Sequence<Int>, on coalescer: Coalescer<Int, String>) async throws -> [Caller] {
        var callers: [Caller] = []
        for request in requests {
            let waiting = coalescer.callersWaiting
            callers.append(start(request, on: coalescer))
            try await until { coalescer.callersWaiting > waiting }
        }
        return callers
    }

    /// The next command sent, once it is.
    func next() async throws -> Sent {
        try await until { queue.withLock { !$0.isEmpty } }
        return queue.withLock { $0.removeFirst() }
    }
}

/// A caller the test started, and its answer once it has one.
private final class Caller: Sendable {
    private let outcome = Mutex<Result<String, any Error>?>(nil)

    init(_ call: @escaping @Sendable () async throws -> String) {
        Task {
            let outcome: Result<String, any Error>
            do {
                outcome = .success(try await call())
            } catch {
                outcome = .failure(error)
            }
            self.outcome.withLock { $0 = outcome }
        }
    }

    /// The caller's answer, once it has one.
    var value: String {
        get async throws {
            try await until { outcome.withLock { $0 != nil } }
            return try outcome.withLock { $0! }.get()
        }
    }
}

/// Waits, letting the other tasks run, until `condition` holds. Throws once the test is cancelled
/// (by its time limit), so that a coalescer that never gets there fails the test instead of hanging
/// it: a continuation the coalescer never resumes would not heed the cancellation.
private func until(_ condition: () -> Bool) async throws {
    while !condition() {
        try Task.checkCancellation()
        await Task.yield()
    }
}
