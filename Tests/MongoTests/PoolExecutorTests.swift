import Dispatch
import Foundation
import Logging
import MongoTestSupport
import Testing

@testable import Mongo

/// The blocking pool as a task executor: tasks that prefer it make their database calls in place,
/// keep running while every slot is blocked, and fall back to the global executor once it is shut
/// down.
@Suite struct PoolExecutorTests {
    @Test func aTaskPreferringThePoolMakesItsCallsOnTheThreadItRunsOn() async throws {
        let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
        let client = try MongoClient(uri: uri, logger: Logger(label: "executor"), defaultPoolSize: 2)
        defer { client.shutdown() }
        let database = MongoDatabase(client: client, name: "mt_executor_\(UUID().uuidString.prefix(8).lowercased())")
        let threads = client.threads

        let inPlaceBefore = threads.callsRunInPlace
        try await withTaskExecutorPreference(client.executor) {
            #expect(threads.isCurrentThread)
            for _ in 0..<20 {
                let before = pthread_self()
                let (inside, onPool) = try await client.withClient { _ in (pthread_self(), threads.isCurrentThread) }
                #expect(onPool)
                #expect(pthread_equal(before, inside) != 0, "the call moved to another thread")
            }
            // A real operation, in place, with its result.
            try await database.collection("c").insertOne(["_id": "a", "n": 1])
            #expect(try await database.collection("c").findOne(["_id": "a"])?.int("n") == 1)
        }
        #expect(threads.callsRunInPlace - inPlaceBefore == 22)
        // Without the preference the call still runs on a pool thread, never on the caller's.
        #expect(!threads.isCurrentThread)
        #expect(try await client.withClient { _ in threads.isCurrentThread })
        #expect(threads.callsRunInPlace - inPlaceBefore == 22)
        try await database.drop()
    }

    @Test func tasksKeepRunningWhileEverySlotIsBlocked() async throws {
        let pool = BlockingPool(threadCount: 1, spareThreads: 1, maxWaiting: 4, name: "slots-test")
        let release = pool.occupySlot()  // the only slot is now blocked

        // A task still runs, on the spare thread; it cannot take a slot, so its call would queue.
        let (ranOnPool, gotSlot) = await withTaskExecutorPreference(pool) {
            (pool.isCurrentThread, pool.acquireSlotHere())
        }
        #expect(ranOnPool)
        #expect(!gotSlot)
        let queued = DispatchSemaphore(value: 0)
        #expect(pool.submit { queued.signal() } == .accepted)
        #expect(queued.wait(timeout: .now() + 0.2) == .timedOut, "a second call ran while the only slot was busy")

        release.signal()
        #expect(queued.wait(timeout: .now() + 5) == .success, "the waiting call did not get the freed slot")
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                pool.shutdown()
                continuation.resume()
            }
        }
    }

    /// Thousands of tasks on the pool, each yielding, making a short blocking call in place or
    /// through the queue, some sleeping (resumed from a timer's thread): all finish, on the pool.
    @Test(.timeLimit(.minutes(1))) func manyTasksMakingCallsAllFinish() async {
        let pool = BlockingPool(threadCount: 2, spareThreads: 1, maxWaiting: 10_000, name: "stress-test")
        let finished = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: Int.self) { group in
                for i in 0..<3000 {
                    group.addTask {
                        await Task.yield()
                        if i % 3 != 0, pool.acquireSlotHere() {
                            usleep(20)
                            pool.releaseSlot()
                        } else {
                            await withCheckedContinuation { continuation in
                                let submission = pool.submit({
                                    usleep(20)
                                    continuation.resume()
                                })
                                if submission != .accepted { continuation.resume() }
                            }
                        }
                        // Resumed from a timer's thread, possibly while every pool thread sleeps.
                        if i % 5 == 0 { try? await Task.sleep(for: .microseconds(200)) }
                        return pool.isCurrentThread ? 1 : 0
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(finished == 3000, "tasks ran off the pool")
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                pool.shutdown()
                continuation.resume()
            }
        }
    }

    @Test func afterShutdownTasksRunOnTheGlobalExecutor() async {
        let pool = BlockingPool(threadCount: 1, maxWaiting: 0, name: "shutdown-test")
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                pool.shutdown()
                continuation.resume()
            }
        }
        let onPool = await withTaskExecutorPreference(pool) { pool.isCurrentThread }
        #expect(!onPool)
        #expect(pool.submit {} == .shutDown)
    }

    @Test func shuttingTheClientDownFromOneOfItsThreadsDoesNotWaitForItself() async throws {
        let uri = try #require(ProcessInfo.processInfo.environment["MONGODB_URI"], "\(TestDatabase.MissingURI())")
        let client = try MongoClient(uri: uri, logger: Logger(label: "executor"), defaultPoolSize: 1)
        try await client.withClient { _ in }
        await withTaskExecutorPreference(client.executor) { client.shutdown() }

        var refused = false
        for _ in 0..<250 where !refused {
            do {
                try await client.withClient { _ in }
                try await Task.sleep(for: .milliseconds(20))
            } catch MongoError.unavailable {
                refused = true
            }
        }
        #expect(refused, "operations still ran 5 s after shutdown")
    }
}
