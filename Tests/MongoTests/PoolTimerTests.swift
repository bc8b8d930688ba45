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

    /// Tasks running on the pool sleep on its timers; an earlier deadline scheduled while a thread
    /// watches a later one is not held up by it.
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
        for (asked, took) in slept {
            #expect(took >= asked)
            // Generous for a loaded machine; the point is that the short ones did not wait 300 ms.
            if asked < .milliseconds(100) { #expect(took < .milliseconds(250), "asked \(asked), took \(took)") }
        }
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
