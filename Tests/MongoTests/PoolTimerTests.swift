import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Mongo

/// The pool's timers (`BlockingPool.schedule(at:_:)`, `sleep(for:)`), on which coalesced commands
/// linger: each job runs once its deadline has passed, in deadline order, on one of the pool's
/// threads, and at once when the pool is shut down.
@Suite struct PoolTimerTests {
    @Test func timersRunInDeadlineOrderOnThePoolAndNotBeforeTheirTime() async throws {
        let pool = BlockingPool(threadCount: 2, spareThreads: 1, maxWaiting: 4, name: "timers-test")
        defer { Self.shutDown(pool) }
        let fired = Mutex<[(Int, ContinuousClock.Instant, Bool)]>([])
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        // Scheduled out of order, from a thread that is not the pool's: an idle thread watches.
        for (n, ms) in [(3, 120), (1, 40), (2, 80)] {
            pool.schedule(at: start + .milliseconds(ms)) {
                fired.withLock { $0.append((n, .now, pool.isCurrentThread)) }
                done.signal()
            }
        }
        for _ in 0..<3 { #expect(done.wait(timeout: .now() + 5) == .success, "a timer never fired") }
        let order = fired.withLock { $0 }
        #expect(order.map(\.0) == [1, 2, 3])
        #expect(order.allSatisfy { $0.2 }, "a timer ran off the pool")
        for ((_, at, _), ms) in zip(order, [40, 80, 120]) { #expect(at - start >= .milliseconds(ms)) }
    }

    /// Tasks running on the pool sleep on its timers, each at least its time, the long one watched
    /// first. That an earlier deadline scheduled while a thread watches a later one wakes the
    /// watcher to look again is `PoolTimers`' decision, proven below at instants the test picks:
    /// no bound on how late a sleep may end, which a busy machine could break.
    @Test func tasksOnThePoolSleepTheirOwnTime() async throws {
        let pool = BlockingPool(threadCount: 2, spareThreads: 1, maxWaiting: 4, name: "sleep-test")
        defer { Self.shutDown(pool) }
        let slept = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: (Duration, Duration).self) { group in
                for ms in [300, 30, 60] {
                    group.addTask {
                        let start = ContinuousClock.now
                        await pool.sleep(for: .milliseconds(ms))
                        return (.milliseconds(ms), ContinuousClock.now - start)
                    }
                    // The long sleep is watched first; the shorter ones come after it.
                    try? await Task.sleep(for: .milliseconds(5))
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(slept.count == 3)
        for (asked, took) in slept { #expect(took >= asked) }
    }

    /// The timers' decisions, at instants the test picks: due in deadline order and never before,
    /// the watcher woken only for an earlier deadline, an idle thread woken only when nobody
    /// watches and the scheduler is not one of the pool's threads, everything due at shutdown.
    @Test func theTimersDecideByTheTimeTheyAreGiven() {
        var timers = PoolTimers<Int, String>()
        #expect(timers.schedule("c", at: 120, fromPool: false) == .watcher)
        #expect(timers.startWatching() == 120)
        #expect(timers.startWatching() == nil, "one thread watches")
        #expect(timers.schedule("a", at: 40, fromPool: false) == .rewatch)
        #expect(timers.schedule("b", at: 80, fromPool: true) == .rewatch)
        #expect(timers.schedule("d", at: 200, fromPool: false) == .none, "a later deadline waits its turn")
        timers.stopWatching()
        #expect(timers.startWatching() == 40)
        timers.stopWatching()
        #expect(timers.takeDue(at: 39) == nil)
        #expect(timers.takeDue(at: 40) == "a")
        #expect(timers.takeDue(at: 40) == nil)
        #expect(timers.takeDue(at: 130) == "b")
        #expect(timers.takeDue(at: 130) == "c")
        #expect(timers.takeDue(at: 130) == nil)
        #expect(timers.schedule("e", at: 500, fromPool: true) == .none, "a pool thread watches when it looks for work")
        #expect(timers.takeDue(at: 131, shuttingDown: true) == "d")
        #expect(timers.takeDue(at: 131, shuttingDown: true) == "e")
        #expect(timers.isEmpty)
    }

    @Test func shuttingDownRunsPendingTimersAtOnce() async throws {
        let pool = BlockingPool(threadCount: 1, maxWaiting: 1, name: "timers-shutdown-test")
        let fired = DispatchSemaphore(value: 0)
        pool.schedule(at: .now + .seconds(600)) { fired.signal() }
        let start = ContinuousClock.now
        Self.shutDown(pool)
        #expect(fired.wait(timeout: .now()) == .success)
        #expect(ContinuousClock.now - start < .seconds(60))
        // After shutdown a timer runs on the caller's thread, at once.
        let ranInline = Mutex(false)
        pool.schedule(at: .now + .seconds(600)) { ranInline.withLock { $0 = true } }
        #expect(ranInline.withLock { $0 })
        await pool.sleep(for: .seconds(600))
    }

    /// `shutdown()` waits for the threads; it must not run on the test's cooperative thread pool.
    static func shutDown(_ pool: BlockingPool) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pool.shutdown()
            done.signal()
        }
        done.wait()
    }
}
