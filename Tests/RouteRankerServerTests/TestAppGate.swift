import Synchronization

/// At most ``limit`` test applications alive at once in the test process.
///
/// Swift Testing starts every test at once (about 600), and each application holds a database
/// client pool: its monitor's connections, a connection per request in flight, its change stream.
/// Unbounded, they reached SecantusDB's cap of 1,000 connections, and the database refused the
/// next ones (tests then failed with "socket error or timeout"). A test waits here for a slot
/// before building its application; one that already holds a slot (an application built inside
/// another's test, or in a task it started) goes through, so nesting cannot deadlock.
enum TestAppGate {
    /// Applications alive at once: about 10 connections each at the most.
    static let limit = 48

    @TaskLocal private static var holding = false
    private static let state = Mutex(State())

    private struct State: ~Copyable {
        var free = TestAppGate.limit
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// Runs `body` holding a slot.
    static func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        if holding { return try await body() }
        await acquire()
        defer { release() }
        return try await $holding.withValue(true) { try await body() }
    }

    private static func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private static func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
