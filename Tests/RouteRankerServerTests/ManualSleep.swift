import Synchronization

/// A clock's sleep that a test advances by hand: `sleep` waits until `advance` lets it go, so a
/// test of something that waits a while (the live hub's linger) neither sleeps nor races the clock.
final class ManualSleep: Sendable {
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// The sleep to inject: returns when the test advances time, whatever the duration.
    @Sendable func sleep(_ duration: Duration) async {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0.append(continuation) }
        }
    }

    /// How many sleeps are waiting.
    var sleepers: Int { waiting.withLock { $0.count } }

    /// Once `count` sleeps wait (the code under test started them on tasks of its own), ends them
    /// all, as if their durations had passed.
    func advance(once count: Int = 1) async {
        while sleepers < count { await Task.yield() }
        for continuation in waiting.withLock({ list in
            defer { list = [] }; return list
        }) {
            continuation.resume()
        }
    }
}
