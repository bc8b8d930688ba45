import Foundation

/// Where the server reads the time of day (the timestamps it records: `created_at`, `shared_at`,
/// link expiry; the leases it takes) and how it waits for time to pass (the periodic passes, the
/// live hub's linger, a follower's keep-alive). The system clock in service; tests may pass one
/// that moves on by a millisecond each reading, so that records made one after another never
/// share a timestamp, or one whose time they move by hand, so that a lease runs out or a pass
/// comes round without a test sleeping for it.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date
    private let wait: @Sendable (Duration) async throws -> Void

    /// A clock that reads the time with `read` and waits with `sleep` (the task's real sleep unless
    /// told otherwise: a clock whose time a test moves passes one that returns when it is moved).
    public init(
        _ read: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.read = read
        self.wait = sleep
    }

    /// The current time, truncated to the millisecond (the precision BSON dates keep).
    public var now: Date { read().millisecondPrecision }

    /// Returns once `duration` has passed on this clock; throws `CancellationError` if the task is
    /// cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await wait(duration)
    }

    public static let system = WallClock { Date.now }
}
