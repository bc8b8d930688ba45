import Dispatch
import Foundation
import Logging
import MongoTestSupport
import Synchronization
import Testing

@testable import Mongo

/// The bound on operations waiting for a database connection: past it, work is refused at once.
/// Nothing here waits on the clock: the pool's time is a test's (`TestClock`), and the tests wait
/// for the pool's own state (threads idle, slots given back) rather than for a while.
@Suite struct WaitingBoundTests {
    @Test func jobsBeyondTheWaitingBoundAreRefusedWhileEveryThreadIsBusy() {
        let pool = BlockingPool(threadCount: 1, maxWaiting: 2, name: "bound-test")
        let release = pool.occupySlot()  // the only thread is now busy
        let ran = DispatchSemaphore(value: 0)
        #expect(pool.submit { ran.signal() } == .accepted)
        #expect(pool.submit { ran.signal() } == .accepted)
        #expect(pool.submit { ran.signal() } == .full)

        release.signal()
        pool.shutdown()  // drains what was accepted
        #expect(ran.wait(timeout: .now()) == .success)
        #expect(ran.wait(timeout: .now()) == .success)
        #expect(ran.wait(timeout: .now()) == .timedOut)
        #expect(pool.submit {} == .shutDown)
    }

    /// When a slot comes free, a call that has waited past its `maxWait` gives up (unless
    /// `shouldGiveUp` says otherwise), and one still within it runs.
    @Test func aCallThatWaitedTooLongGivesUpWhenItsTurnComes() {
        let clock = TestClock()
        let pool = BlockingPool(threadCount: 1, maxWaiting: 3, name: "wait-test", now: { clock.now })
        let release = pool.occupySlot()
        let log = EventLog()
        let submissions = [
            pool.submit(log.job("impatient ran"), maxWait: .milliseconds(50), giveUp: log.job("impatient gave up")),
            pool.submit(log.job("patient ran"), maxWait: .seconds(60), giveUp: log.job("patient gave up")),
            // Waited too long, but told not to give up (a database that answers, however slowly).
            pool.submit(
                log.job("excused ran"), maxWait: .milliseconds(50), giveUp: log.job("excused gave up"),
                shouldGiveUp: { false }),
        ]
        #expect(submissions == [.accepted, .accepted, .accepted])
        clock.advance(by: .milliseconds(200))  // past the first one's patience, well within the second's
        release.signal()
        pool.shutdown()  // drains what was accepted, on the one thread, in turn
        #expect(log.events == ["impatient gave up", "patient ran", "excused ran"])
    }

    /// Having waited exactly `maxWait` is not having waited too long.
    @Test func aCallWithinItsMaxWaitRunsWhenItsTurnComes() {
        let clock = TestClock()
        let pool = BlockingPool(threadCount: 1, maxWaiting: 1, name: "wait-test", now: { clock.now })
        let release = pool.occupySlot()
        let log = EventLog()
        #expect(pool.submit(log.job("ran"), maxWait: .milliseconds(50), giveUp: log.job("gave up")) == .accepted)
        clock.advance(by: .milliseconds(50))
        release.signal()
        pool.shutdown()
        #expect(log.events == ["ran"])
    }

    @Test func anIdleThreadTakesAJobEvenWithNoRoomToWait() {
        let pool = BlockingPool(threadCount: 2, maxWaiting: 0, name: "idle-test")
        // Both threads wait for work, so that the job is handed to an idle one.
        while pool.threadsIdle < 2 { sched_yield() }
        let done = DispatchSemaphore(value: 0)
        #expect(pool.submit { done.signal() } == .accepted)
        done.wait()
        pool.shutdown()
    }

    @Test func aClientRefusesOperationsPastTheBoundWithOverloaded() async throws {
        let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
        let separator = uri.contains("?") ? "&" : "?"
        let client = try MongoClient(
            uri: uri + separator + "maxPoolSize=1", logger: Logger(label: "bound"), maxWaitingPerClient: 0)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let busy = Task {
            try await client.withClient { _ in
                started.signal(); release.wait()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait(); continuation.resume()
            }
        }
        await #expect(throws: MongoError.overloaded(waiting: 0)) { try await client.withClient { _ in } }
        release.signal()
        try await busy.value
        // The busy call answered before its thread gave the slot back.
        while client.threads.slotsTaken > 0 { await Task.yield() }
        try await client.withClient { _ in }
        client.shutdown()
    }
}

/// A clock for `BlockingPool`'s `now` that moves only when the test advances it.
private final class TestClock: Sendable {
    private let start = ContinuousClock.now
    private let elapsed = Mutex(Duration.zero)

    var now: ContinuousClock.Instant { start + elapsed.withLock { $0 } }

    func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }
}

/// What the pool's calls did, in order.
private final class EventLog: Sendable {
    private let list = Mutex<[String]>([])

    var events: [String] { list.withLock { $0 } }

    /// A call that records `event` when it runs.
    func job(_ event: String) -> BlockingPool.Job {
        { [self] in list.withLock { $0.append(event) } }
    }
}
