import Dispatch
import Foundation
import Logging
import Testing

@testable import Mongo

/// The bound on operations waiting for a database connection: past it, work is refused at once.
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

    @Test func aCallThatWaitedTooLongGivesUpWhenItsTurnComes() {
        let pool = BlockingPool(threadCount: 1, maxWaiting: 2, name: "wait-test")
        let release = pool.occupySlot()
        let ran = DispatchSemaphore(value: 0)
        let gaveUp = DispatchSemaphore(value: 0)
        #expect(pool.submit({ ran.signal() }, maxWait: .milliseconds(50), giveUp: { gaveUp.signal() }) == .accepted)
        #expect(pool.submit({ ran.signal() }, maxWait: .seconds(60), giveUp: { gaveUp.signal() }) == .accepted)
        Thread.sleep(forTimeInterval: 0.2)  // past the first one's patience, well within the second's
        release.signal()

        #expect(gaveUp.wait(timeout: .now() + 5) == .success, "the impatient call was not refused")
        #expect(ran.wait(timeout: .now() + 5) == .success, "the patient call did not run")
        #expect(ran.wait(timeout: .now() + 0.1) == .timedOut, "the impatient call ran anyway")
        #expect(gaveUp.wait(timeout: .now() + 0.1) == .timedOut, "the patient call was refused too")
        pool.shutdown()
    }

    @Test func anIdleThreadTakesAJobEvenWithNoRoomToWait() {
        let pool = BlockingPool(threadCount: 2, maxWaiting: 0, name: "idle-test")
        // Let both threads reach their wait, so that they count as idle.
        Thread.sleep(forTimeInterval: 0.1)
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
        try await Task.sleep(for: .milliseconds(100))  // the one thread waits for work
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
        try await Task.sleep(for: .milliseconds(100))  // the thread is idle again
        try await client.withClient { _ in }
        client.shutdown()
    }
}
