/// The pool's timers as a value: jobs by deadline, and the deadline a thread watches, if any. It
/// decides, given the time, what is due and what the pool must do about a new timer; the pool does
/// the waiting and the waking (`BlockingPool.schedule(at:_:)`). Generic over the instant, so that a
/// test drives it with times of its own choosing and no thread.
struct PoolTimers<Instant: Comparable, Job> {
    /// What the pool does after a timer was added.
    enum Wake: Equatable {
        /// Nothing: the watching thread watches an earlier deadline, or the scheduler is one of the
        /// pool's threads, which watches when it next looks for work.
        case none
        /// Wake an idle thread to watch (nobody watches).
        case watcher
        /// Wake the watching thread, which waits for a later deadline, so that it looks again.
        case rewatch
    }

    /// Timers not yet taken, earliest first (in order of scheduling among equal deadlines).
    private var timers: [(deadline: Instant, job: Job)] = []
    /// The deadline a thread waits for, if one watches the timers. One at most, so that a deadline
    /// wakes one thread, not every idle one.
    private(set) var watching: Instant?

    var isEmpty: Bool { timers.isEmpty }

    /// Adds `job`, due at `deadline`; `fromPool`: whether the scheduler is one of the pool's threads.
    mutating func schedule(_ job: Job, at deadline: Instant, fromPool: Bool) -> Wake {
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.count
        timers.insert((deadline, job), at: index)
        if let watching { return deadline < watching ? .rewatch : .none }
        return fromPool ? .none : .watcher
    }

    /// The earliest timer if it is due at `now` (or any, once the pool shuts down), taken out.
    mutating func takeDue(at now: Instant, shuttingDown: Bool = false) -> Job? {
        guard let first = timers.first, shuttingDown || first.deadline <= now else { return nil }
        timers.removeFirst()
        return first.job
    }

    /// The deadline for an idle thread to wait for, now watched by it: nil when nobody need watch
    /// (no timers) or another thread already does.
    mutating func startWatching() -> Instant? {
        guard watching == nil, let first = timers.first else { return nil }
        watching = first.deadline
        return first.deadline
    }

    /// The watching thread has woken.
    mutating func stopWatching() {
        watching = nil
    }
}
