import Testing

/// Runs `body` for callers `0..<callers`, all at once, and expects that they shared commands:
/// `commandsSent` (read before and after) grew by at least one and by fewer than half the callers.
func expectSharedCommands(
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
