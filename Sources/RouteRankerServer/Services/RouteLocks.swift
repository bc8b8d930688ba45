/// Serializes the writers of one route within this process, so that concurrent appends queue
/// instead of failing their version check. (Across processes the version guard in the commit
/// still decides; the loser gets `409` and resends, which is harmless.)
actor RouteLocks {
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while holding the lock of `route`.
    func withLock<T: Sendable>(_ route: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(route)
        do {
            let value = try await body()
            release(route)
            return value
        } catch {
            release(route)
            throw error
        }
    }

    private func acquire(_ route: String) async {
        if waiters[route] == nil {
            waiters[route] = []
            return
        }
        await withCheckedContinuation { waiters[route, default: []].append($0) }
    }

    private func release(_ route: String) {
        guard var queue = waiters[route] else { return }
        if queue.isEmpty {
            waiters[route] = nil
        } else {
            let next = queue.removeFirst()
            waiters[route] = queue
            next.resume()
        }
    }
}
