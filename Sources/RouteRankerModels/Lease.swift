import Foundation

/// A claim held until a moment (`until`): an idempotency key's attempt, an import job's worker, an
/// account removal's process. The decisions are taken here, on a time passed in (the server's
/// `WallClock`), so that they are the same in the database's filters and in tests that move the
/// clock: a lease taken at `t` for 30 s holds at `t + 29.999 s` and has run out at `t + 30 s`.
public struct Lease: Sendable, Equatable {
    /// The first moment at which the lease no longer holds.
    public var until: Date

    public init(until: Date) {
        self.until = until
    }

    /// A lease taken at `now` for `duration` seconds.
    public init(from now: Date, for duration: TimeInterval) {
        until = now.addingTimeInterval(duration)
    }

    /// Whether the lease still holds at `now` (another claimant must wait).
    public func holds(at now: Date) -> Bool { until > now }

    /// Whether the lease has run out by `now` (another claimant may take it over).
    public func hasRunOut(by now: Date) -> Bool { !holds(at: now) }

    /// The whole seconds left at `now`, rounded up, at least 1 (what `Retry-After` says); 1 for a
    /// lease out of `Int`'s range.
    public func secondsLeft(at now: Date) -> Int {
        max(1, Int(exactly: until.timeIntervalSince(now).rounded(.up)) ?? 1)
    }
}
