import Logging
import RouteRankerModels
import ServiceLifecycle

/// The loop of the background services that look for work every so often (the idle-route sweep,
/// pending account deletions): a pass, then `interval` on `clock`, until the graceful shutdown.
/// A pass that fails is logged and the next one tries again: the work's state is in the
/// database, so a database that was down costs a delay, never the work. What a pass does is
/// decided on the clock's `now` (which leases ran out, which devices are idle), and the wait is
/// the clock's too, so a test that moves the clock makes the next pass come and sees what it did.
enum PeriodicPasses {
    static func run(
        every interval: Duration, on clock: WallClock, logger: Logger, what: String,
        _ pass: @escaping @Sendable () async throws -> Void
    ) async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await pass()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("\(what) failed: \(error)")
                }
                try? await clock.sleep(for: interval)
            }
        }
    }
}
