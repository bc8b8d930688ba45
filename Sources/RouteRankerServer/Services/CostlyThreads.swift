import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A few threads of their own for CPU-heavy work, as a task executor: code that prefers it
/// (`withTaskExecutorPreference`) runs here between its suspension points, and its database calls
/// still go to the database client's pool. So a request that draws a picture or compares routes for
/// seconds holds one of these threads, never one of the pool's threads that every cheap request
/// needs (issue 43: two such requests stalled another user's `GET` for 13.7 s).
///
/// The threads run at a lower priority (nice 10): on a 2-core machine, when a cheap request and
/// costly work want the same core, the kernel gives the cheap request most of it.
final class CostlyThreads: TaskExecutor, @unchecked Sendable {
    /// Jobs waiting for a thread, oldest first, guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopping = false
    private let condition = NSCondition()
    /// The threads' ids, guarded by `condition`.
    private var threadIDs: [pthread_t] = []
    /// The nice value of the threads (higher runs less when a core is contended).
    static let niceness: Int32 = 10

    /// Starts `count` threads named `name`.
    init(count: Int, name: String) {
        for n in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.loop() }
            thread.name = "\(name)-\(n)"
            thread.start()
        }
    }

    /// The process's threads for costly requests (`CostlyWork`), started on first use.
    static let requests = CostlyThreads(count: defaultCount, name: "costly")
    /// The process's thread for import jobs (`ImportWorker`): one, apart from the requests' so that
    /// an import's big entry never waits behind a picture, nor a picture behind an import.
    static let imports = CostlyThreads(count: 1, name: "imports")

    /// The default number of threads: one on a machine with two cores or fewer, so that costly
    /// work never takes every core; at most two.
    static var defaultCount: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount - 1)) }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Whether the calling thread is one of these (tests, checks).
    var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        let me = pthread_self()
        return threadIDs.contains { pthread_equal($0, me) != 0 }
    }

    /// Lets the threads end once the queue is empty (at shutdown; tests).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        #if os(Linux)
            // The nice value is per thread on Linux (NPTL): 0 names the calling thread only.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
        #endif
        condition.lock()
        threadIDs.append(pthread_self())
        condition.unlock()
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
