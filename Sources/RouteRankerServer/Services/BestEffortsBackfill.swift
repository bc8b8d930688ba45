import Logging
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle

/// Computes the best efforts of the finished routes stored before best efforts existed: once per
/// database, beside the server rather than before it, so that start-up does not wait for a walk
/// over every route. Routes are taken in id order, a batch at a time, and the position is
/// recorded after each batch (`MigrationProgress`), so a restart goes on where it stopped.
///
/// Every process runs one; they need no coordination: storing a route's efforts is idempotent,
/// and a route finished meanwhile got its efforts from `BestEffortsKeeper` already (computing
/// them again gives the same documents). Until it is done, an old route's efforts are missing
/// from records and rankings, never wrong.
struct BestEffortsBackfill: Service {
    /// Routes read and computed per step (each is one read of its points).
    static let batch = 50

    let routes: RouteRepository
    let progress: MigrationProgress
    let keeper: BestEffortsKeeper
    let clock: WallClock
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await step() { break }
                } catch is CancellationError {
                    return
                } catch {
                    // The database may be down: the next step goes on from the recorded position.
                    logger.warning("best efforts migration step failed: \(error)")
                    try? await clock.sleep(for: .seconds(5))
                }
            }
        }
        // A service that returns ends the whole service group: once done, this one waits for the
        // shutdown like the others.
        try? await gracefulShutdown()
    }

    /// One batch; true when the migration is done.
    func step() async throws -> Bool {
        let position = try await progress.position()
        if position.done { return true }
        let batch = try await routes.finished(after: position.after, limit: Self.batch)
        for route in batch {
            try Task.checkCancellation()
            try await keeper.update(route)
        }
        guard let last = batch.last else {
            try await progress.finish(now: clock.now)
            logger.info("best efforts computed for the routes stored before them")
            return true
        }
        try await progress.advance(to: last.id)
        return false
    }
}
