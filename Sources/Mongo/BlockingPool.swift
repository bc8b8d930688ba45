import Foundation

/// A fixed set of threads that run blocking jobs (libmongoc calls) off Swift's cooperative executor
/// and off any event loop. Sized to the client pool, so a job never waits for a client. At most
/// `maxWaiting` jobs wait for a thread: beyond that a flood is refused at once instead of queueing
/// without bound (each waiting job holds a suspended request and its memory).
///
/// `@unchecked Sendable`: all mutable state (`jobs`, `idleThreads`, `isShutDown`) is read and written only while
/// holding `condition`'s lock; the threads are started once in `init` and only joined afterwards.
final class BlockingPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    /// What became of a submitted job.
    enum Submission: Equatable {
        /// Queued; it will run.
        case accepted
        /// Dropped: `maxWaiting` jobs are already waiting.
        case full
        /// Dropped: `shutdown()` has begun.
        case shutDown
    }

    /// The most jobs that may wait for a thread (running ones not counted).
    let maxWaiting: Int
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var nextJob = 0
    /// Threads blocked waiting for a job: queued jobs up to this many do not wait for a thread.
    private var idleThreads = 0
    private var isShutDown = false
    private let finished = DispatchGroup()

    /// Starts `threadCount` threads named `name-1`, `name-2`, …, with room for `maxWaiting` jobs
    /// waiting for one of them.
    init(threadCount: Int, maxWaiting: Int, name: String) {
        precondition(threadCount > 0, "a blocking pool needs at least one thread")
        precondition(maxWaiting >= 0, "maxWaiting cannot be negative")
        self.maxWaiting = maxWaiting
        for i in 1...threadCount {
            finished.enter()
            let thread = Thread { [self] in
                runJobs()
                finished.leave()
            }
            thread.name = "\(name)-\(i)"
            thread.start()
        }
    }

    /// Queues `job`, unless the pool is shut down or `maxWaiting` jobs are already waiting.
    func submit(_ job: @escaping Job) -> Submission {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutDown else { return .shutDown }
        guard jobs.count - nextJob - idleThreads < maxWaiting else { return .full }
        jobs.append(job)
        condition.signal()
        return .accepted
    }

    /// Refuses new jobs, lets the threads finish every queued one, and waits for them to exit.
    /// Idempotent; must not be called from one of the pool's own threads.
    func shutdown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func runJobs() {
        while let job = takeJob() {
            job()
        }
    }

    /// The next job, or nil once shut down and drained.
    private func takeJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while nextJob == jobs.count {
            if isShutDown { return nil }
            idleThreads += 1
            condition.wait()
            idleThreads -= 1
        }
        let job = jobs[nextJob]
        nextJob += 1
        // Compact now and then rather than removeFirst() on every job: the queue is a FIFO.
        if nextJob == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            nextJob = 0
        } else if nextJob >= 64 {
            jobs.removeFirst(nextJob)
            nextJob = 0
        }
        return job
    }
}
