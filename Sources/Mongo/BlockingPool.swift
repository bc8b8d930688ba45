import Foundation

/// A fixed set of threads that run blocking jobs (libmongoc calls) off Swift's cooperative executor
/// and off any event loop. Sized to the client pool, so a job never waits for a client.
///
/// `@unchecked Sendable`: all mutable state (`jobs`, `isShutDown`) is read and written only while
/// holding `condition`'s lock; the threads are started once in `init` and only joined afterwards.
final class BlockingPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var nextJob = 0
    private var isShutDown = false
    private let finished = DispatchGroup()

    /// Starts `threadCount` threads named `name-1`, `name-2`, ….
    init(threadCount: Int, name: String) {
        precondition(threadCount > 0, "a blocking pool needs at least one thread")
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

    /// Queues `job`; false (and the job is dropped) once `shutdown()` has begun.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutDown else { return false }
        jobs.append(job)
        condition.signal()
        return true
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
            condition.wait()
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
