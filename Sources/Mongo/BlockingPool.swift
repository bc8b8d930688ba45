import Foundation

/// The threads that run blocking calls (libmongoc) off any event loop, and that can also run Swift
/// tasks which prefer them as their executor (`withTaskExecutorPreference`).
///
/// A task running here makes its blocking call in place, on the thread it is already on, instead of
/// handing it to another thread and waking again when it is done: two thread wake-ups fewer per
/// call. At most `slots` blocking calls run at once (one per pooled database client); the pool has
/// `spareThreads` more threads than that, so tasks keep running while every slot is blocked (for
/// example on a database that does not answer), and a blocking call never waits for a thread. A
/// call that finds every slot taken waits in a queue of at most `maxWaiting`; beyond that it is
/// refused at once instead of queueing without bound (each waiting call holds a suspended request
/// and its memory).
///
/// The rule that keeps this free of deadlocks: code running on these threads blocks only inside a
/// call that holds a slot (`submit`, or `acquireSlotHere` … `releaseSlot`), never elsewhere.
///
/// `@unchecked Sendable`: all mutable state (the queues, `callsRunning`, `idleThreads`, `isShutDown`)
/// is read and written only while holding `condition`'s lock; the threads are started once in `init`
/// and only joined afterwards.
final class BlockingPool: TaskExecutor, @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    /// What became of a submitted call.
    enum Submission: Equatable {
        /// Queued; it will run.
        case accepted
        /// Dropped: every slot is busy and `maxWaiting` calls are already waiting.
        case full
        /// Dropped: `shutdown()` has begun.
        case shutDown
    }

    /// Work a thread can take: a task's job, a blocking call that already holds a slot, or the
    /// refusal of a call that waited too long for one.
    private enum Work {
        case task(UnownedJob)
        case call(Job)
        case giveUp(Job)
        case timer(Job)
    }

    /// A call waiting for a slot, and what to do instead once it has waited past `deadline` (if
    /// `shouldGiveUp` then says so).
    private struct WaitingCall {
        let job: Job
        let deadline: ContinuousClock.Instant?
        let giveUp: Job?
        let shouldGiveUp: (@Sendable () -> Bool)?
    }

    /// The most blocking calls that run at once.
    let slots: Int
    /// The most calls that may wait for a slot (running ones not counted).
    let maxWaiting: Int
    private let condition = NSCondition()
    private var runnable = FIFO<Work>()
    private var waitingCalls = FIFO<WaitingCall>()
    /// Slots taken: calls running, or queued in `runnable` with their slot.
    private var callsRunning = 0
    private let threadCount: Int
    /// Threads waiting for work, including those signalled but not yet awake.
    private var idleThreads = 0
    /// Threads signalled but not yet awake.
    private var wakesPending = 0
    /// Threads inside a blocking call.
    private var blockedThreads = 0
    private var callsInPlace = 0
    /// The most threads that run tasks at once (not counting those blocked in a call): more than
    /// the machine has cores only adds context switches. A new job waits for a running thread to
    /// come back for it rather than waking another thread past this.
    private let maxRunning = max(1, ProcessInfo.processInfo.activeProcessorCount)
    private var isShutDown = false
    /// Timers not yet due, and the deadline a thread watches (`PoolTimers`).
    private var timers = PoolTimers<ContinuousClock.Instant, Job>()
    /// Threads running a timer's job: what such a job queues (a sleeping task's resumption), that
    /// thread takes itself right after, so no other thread is woken for it.
    private var timersRunning = 0
    private let finished = DispatchGroup()
    /// The time against which waiting calls' `maxWait` is measured: the continuous clock's, or a
    /// test's, which then moves only when the test says.
    let now: @Sendable () -> ContinuousClock.Instant

    /// Starts `threadCount + spareThreads` threads named `name-1`, `name-2`, …, with `threadCount`
    /// slots for blocking calls and room for `maxWaiting` calls waiting for one.
    init(
        threadCount: Int, spareThreads: Int = 0, maxWaiting: Int, name: String,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        precondition(threadCount > 0, "a blocking pool needs at least one thread")
        precondition(maxWaiting >= 0 && spareThreads >= 0, "maxWaiting and spareThreads cannot be negative")
        self.slots = threadCount
        self.maxWaiting = maxWaiting
        self.threadCount = threadCount + spareThreads
        self.now = now
        for i in 1...(threadCount + spareThreads) {
            finished.enter()
            let thread = Thread { [self] in
                PoolThread.mark(self, name: "\(name)-\(i)")
                runWork()
                finished.leave()
            }
            thread.start()
        }
    }

    /// Whether the calling thread is one of this pool's.
    var isCurrentThread: Bool { PoolThread.isCurrent(self) }

    /// Queues a blocking call, unless the pool is shut down or every slot is busy with `maxWaiting`
    /// calls already waiting. A call that has waited longer than `maxWait` for a slot when one
    /// comes free runs `giveUp` instead, on one of the threads, if `shouldGiveUp` (asked then, with
    /// the pool's lock held, so it must be quick) says so.
    func submit(
        _ job: @escaping Job, maxWait: Duration? = nil, giveUp: Job? = nil,
        shouldGiveUp: (@Sendable () -> Bool)? = nil
    ) -> Submission {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutDown else { return .shutDown }
        if callsRunning < slots {
            callsRunning += 1
            push(.call(job))
        } else if waitingCalls.count < maxWaiting {
            waitingCalls.append(
                WaitingCall(
                    job: job, deadline: maxWait.map { now() + $0 }, giveUp: giveUp, shouldGiveUp: shouldGiveUp))
        } else {
            return .full
        }
        return .accepted
    }

    /// Takes a slot for a blocking call on the current thread, one of this pool's: false if none is
    /// free (or calls already wait for one, so as not to pass them), or the pool is shutting down.
    /// After `true`, call `releaseSlot()` once the call is done.
    func acquireSlotHere() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutDown, callsRunning < slots, waitingCalls.isEmpty else { return false }
        callsRunning += 1
        callsInPlace += 1
        startBlocking()
        return true
    }

    /// How many calls have run in place, on the thread of the task that made them.
    var callsRunInPlace: Int {
        condition.lock()
        defer { condition.unlock() }
        return callsInPlace
    }

    /// How many slots are taken (by calls running, or queued to run with their slot), for a test to
    /// wait until a call has given its slot back: that happens after the call has answered.
    var slotsTaken: Int {
        condition.lock()
        defer { condition.unlock() }
        return callsRunning
    }

    /// How many threads wait for work (signalled ones not yet awake included), for a test to wait
    /// until the threads have started and gone idle.
    var threadsIdle: Int {
        condition.lock()
        defer { condition.unlock() }
        return idleThreads
    }

    /// Gives back a slot taken by `acquireSlotHere()`: the next waiting call gets it.
    func releaseSlot() {
        condition.lock()
        defer { condition.unlock() }
        blockedThreads -= 1
        finishCall()
    }

    /// Runs `job` (short, non-blocking) on one of the threads once `deadline` has passed; once shut
    /// down, at once on the caller's thread.
    ///
    /// An idle thread waits for the earliest deadline and runs the job itself: a sleeping task
    /// (`sleep(for:)`) then costs one thread wake-up. `Task.sleep` costs three on Linux (Dispatch's
    /// timer thread, one of its workers, then one of these) and Dispatch's own bookkeeping.
    func schedule(at deadline: ContinuousClock.Instant, _ job: @escaping Job) {
        condition.lock()
        guard !isShutDown else {
            condition.unlock()
            job()
            return
        }
        switch timers.schedule(job, at: deadline, fromPool: isCurrentThread) {
        // The watching thread waits for a later deadline: all are woken, so that it looks again.
        case .rewatch: condition.broadcast()
        case .watcher: wakeWatcherIfNeeded()
        case .none: break
        }
        condition.unlock()
    }

    /// Suspends the calling task for `duration` (at least), on this pool's timers
    /// (`schedule(at:_:)`). Not cancellable: meant for waits of milliseconds.
    func sleep(for duration: Duration) async {
        guard duration > .zero else { return }
        await sleep(until: now() + duration)
    }

    /// Suspends the calling task until `deadline` (at least), on this pool's timers.
    func sleep(until deadline: ContinuousClock.Instant) async {
        guard deadline > now() else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            schedule(at: deadline) { continuation.resume() }
        }
    }

    /// Runs a task's job on one of the threads; once shut down, on the global executor instead,
    /// since a task's job cannot be dropped.
    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if isShutDown {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        push(.task(UnownedJob(job)))
        condition.unlock()
    }

    /// Refuses new calls (tasks go to the global executor), lets the threads finish everything
    /// queued, and waits for them to exit. Idempotent; must not be called from one of the pool's own
    /// threads.
    func shutdown() {
        precondition(!isCurrentThread, "a blocking pool cannot wait for its own threads")
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    /// Queues runnable work; the caller holds the lock.
    private func push(_ work: Work) {
        runnable.append(work)
        wakeIfNeeded()
    }

    /// Wakes an idle thread for queued work, unless enough threads are already running. The caller
    /// holds the lock.
    private func wakeIfNeeded() {
        let running = threadCount - idleThreads + wakesPending - blockedThreads
        guard runnable.count > timersRunning, idleThreads > wakesPending, running < maxRunning else { return }
        wakesPending += 1
        condition.signal()
    }

    /// Wakes an idle thread to watch the timers if none does. The caller holds the lock.
    private func wakeWatcherIfNeeded() {
        guard !timers.isEmpty, timers.watching == nil, idleThreads > wakesPending else { return }
        wakesPending += 1
        condition.signal()
    }

    /// The current thread is about to block in a call: another may have to run the queued work, or
    /// watch the timers in its place.
    /// The caller holds the lock.
    private func startBlocking() {
        blockedThreads += 1
        wakeIfNeeded()
        wakeWatcherIfNeeded()
    }

    /// A call is done: its slot passes to the next waiting call, or becomes free. The caller holds
    /// the lock.
    private func finishCall() {
        let time = now()
        while let next = waitingCalls.popFirst() {
            if let deadline = next.deadline, let giveUp = next.giveUp, deadline < time,
                next.shouldGiveUp?() ?? true
            {
                push(.giveUp(giveUp))
                continue
            }
            push(.call(next.job))
            return
        }
        callsRunning -= 1
    }

    private func runWork() {
        let executor = asUnownedTaskExecutor()
        while let work = takeWork() {
            switch work {
            case .task(let job):
                job.runSynchronously(on: executor)
            case .call(let job):
                job()
                releaseSlot()
            case .giveUp(let job):
                job()
            case .timer(let job):
                job()
                condition.lock()
                timersRunning -= 1
                condition.unlock()
            }
        }
    }

    /// The next work, or nil once shut down and drained. A due timer comes after queued work
    /// (it was due at the earliest when it was looked at), and before waiting.
    private func takeWork() -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while runnable.isEmpty {
            if let job = timers.takeDue(at: now(), shuttingDown: isShutDown) {
                timersRunning += 1
                return .timer(job)
            }
            // Waiting calls get a slot as running ones finish; stay until they have run.
            if isShutDown && waitingCalls.isEmpty { return nil }
            idleThreads += 1
            if let deadline = timers.startWatching() {
                let seconds = (deadline - now()) / .seconds(1)
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0, seconds)))
                timers.stopWatching()
            } else {
                condition.wait()
            }
            idleThreads -= 1
            // A spurious wake-up may leave the count of signalled threads behind; it only counts up
            // to the idle threads. A watch that timed out counts as a signalled wake too: a signal
            // that raced with the timeout may have been spent on it, and a count too high would
            // leave queued work with no thread woken for it (one too low costs a wake-up at most).
            wakesPending = max(0, min(wakesPending - 1, idleThreads))
        }
        let work = runnable.popFirst()
        if case .call = work { startBlocking() }
        return work
    }
}

/// A first-in first-out queue on an array, compacted now and then rather than shifted on every take.
private struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ item: Element) {
        items.append(item)
    }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}

/// Which pool, if any, the current thread belongs to, kept in a thread-specific slot.
private enum PoolThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// Marks the current thread as `pool`'s, and names it (for `top -H`, `perf` and debuggers).
    static func mark(_ pool: BlockingPool, name: String) {
        pthread_setspecific(key, Unmanaged.passUnretained(pool).toOpaque())
        Thread.current.name = name
    }

    /// Whether the current thread is one of `pool`'s.
    static func isCurrent(_ pool: BlockingPool) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(pool).toOpaque()
    }
}
