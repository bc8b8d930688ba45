/// A clock whose sleeps wake on a client's own threads (`MongoClient.clock`): the continuous
/// clock's time, with a sleeping task resumed by the pool thread that watches the timers. A short
/// sleep (a batch lingering for company, milliseconds) then costs one thread wake-up; `Task.sleep`
/// costs three on Linux (Dispatch's timer thread, one of its workers, then the task's executor).
///
/// Not cancellable: a sleep ends at its deadline, or at once when the client shuts down. Meant for
/// waits of milliseconds.
public struct MongoPoolClock: Clock {
    public typealias Duration = Swift.Duration
    public typealias Instant = ContinuousClock.Instant

    let pool: BlockingPool

    public var now: Instant { pool.now() }

    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await pool.sleep(until: deadline)
    }
}
