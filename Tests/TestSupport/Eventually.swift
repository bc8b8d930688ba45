/// The condition did not hold within the time given.
public struct NeverHappened: Error, CustomStringConvertible {
    public let waited: Duration
    public var description: String { "the condition did not hold within \(waited)" }
}

/// Returns once `condition` holds, looking every 10 ms; throws `NeverHappened` after `within`. A
/// test's way to wait for something to happen, not for a time to pass: it goes on the moment the
/// thing has happened, and the bound only turns a hang into a failure, so it can be generous.
public func eventually(
    within: Duration = .seconds(30), _ condition: @Sendable () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + within
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw NeverHappened(waited: within) }
        try await Task.sleep(for: .milliseconds(10))
    }
}
