import Testing

/// Runs `body` for callers `0..<callers`, all at once, and expects that they shared commands:
/// `commandsSent` (read before and after) grew by at least one and by fewer than half the callers.
public func expectSharedCommands(
    callers: Int, commandsSent: @escaping () -> Int, _ body: @escaping @Sendable (Int) async throws -> Void
) async throws {
    let before = commandsSent()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for caller in 0..<callers {
            group.addTask { try await body(caller) }
        }
        try await group.waitForAll()
    }
    let sent = commandsSent() - before
    #expect(sent >= 1)
    #expect(sent < callers / 2, "\(sent) commands for \(callers) concurrent callers")
}

/// Runs `checks` while `readers` background callers run `read(reader)` over and over, so that the
/// checked calls join commands other callers keep under way; returns how many reads the
/// background callers made (for a bound on the commands sent).
public func whileReadersRun(
    _ readers: Int, read: @escaping @Sendable (Int) async throws -> Void, _ checks: () async throws -> Void
) async throws -> Int {
    let stop = StopFlag()
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for reader in 0..<readers {
            group.addTask {
                var count = 0
                while !stop.isSet {
                    try await read(reader)
                    count += 1
                }
                return count
            }
        }
        do {
            try await checks()
        } catch {
            stop.set()
            throw error
        }
        stop.set()
        return try await group.reduce(0, +)
    }
}
