import Logging
import ServiceLifecycle

/// The loop of the background services that look for work every so often (the idle-route sweep,
/// pending account deletions): a pass, then `interval`, until the graceful shutdown. A pass that
/// fails is logged and the next one tries again: the work's state is in the database, so a
/// database that was down costs a delay, never the work.
enum PeriodicPasses {
    static func run(
        every interval: Duration, logger: Logger, what: String, _ pass: @escaping @Sendable () async throws -> Void
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
                try? await Task.sleep(for: interval)
            }
        }
    }
}
