import Foundation

/// Where the server reads the time of day for the timestamps it records (`created_at`,
/// `shared_at`, link expiry). The system clock in service; tests may pass one that moves on by a
/// millisecond each reading, so that records made one after another never share a timestamp and
/// no test has to sleep for it.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current time, truncated to the millisecond (the precision BSON dates keep).
    public var now: Date { read().millisecondPrecision }

    public static let system = WallClock { Date.now }
}
