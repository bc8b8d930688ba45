import Foundation
import RouteRankerModels
import Synchronization
import Testing

/// A `WallClock` whose time a test moves by hand: `now` stands still (or follows the real time,
/// never the same millisecond twice) until `advance` moves it, and the clock's sleeps (the
/// periodic passes, the import worker's wait, a follower's keep-alive, the live hub's linger)
/// end when an `advance` takes the time past their end, never by themselves. So a test makes a
/// lease run out, or a pass come round, without sleeping, to the millisecond.
final class ManualClock: Sendable {
    private struct Sleeper {
        var id: Int
        var end: Int64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// Milliseconds the test moved the clock on.
        var offset: Int64 = 0
        var sleepers: [Sleeper] = []
        var lastID = 0
        /// Tests waiting for `count` sleepers.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    /// The milliseconds since 1970 before any move.
    private let base: @Sendable () -> Int64

    /// A clock that stands at `start` (whole milliseconds) until moved: every reading is exact.
    init(at start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        let ms = Int64((start.timeIntervalSince1970 * 1000).rounded(.down))
        base = { ms }
    }

    /// A clock that follows the real time, never the same millisecond twice (records made one
    /// after another get distinct timestamps), plus what the test moved it on; its sleeps still
    /// end only when moved.
    static func followingRealTime() -> ManualClock { ManualClock(real: .distinctMilliseconds()) }

    private init(real: WallClock) {
        base = { Int64((real.now.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// The clock to give the server.
    var clock: WallClock {
        WallClock({ [self] in now }, sleep: { [self] in try await sleep(for: $0) })
    }

    /// The current time (half a millisecond in, so that truncating it to the millisecond, as
    /// `WallClock.now` and BSON do, never lands on the one before).
    var now: Date { Date(timeIntervalSince1970: (Double(milliseconds) + 0.5) / 1000) }

    private var milliseconds: Int64 { base() + state.withLock { $0.offset } }

    /// Moves the time on by `duration` and ends the sleeps that it takes past their end.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.offset += Self.milliseconds(duration)
            let now = base() + state.offset
            let due = state.sleepers.filter { $0.end <= now }
            state.sleepers.removeAll { $0.end <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many sleeps wait for the clock to move.
    var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Returns once `count` sleeps wait for the clock to move: the services that sleep on it have
    /// done what the last move made due and gone back to sleep. Fails the test after a minute.
    func waitForSleepers(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + .seconds(60)
        let timeout = Task {
            try await Task.sleep(until: deadline)
            self.notifyWatchers(force: true)
        }
        defer { timeout.cancel() }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        if sleepers < count {
            Issue.record("\(sleepers) of \(count) sleeps waited after a minute", sourceLocation: sourceLocation)
        }
    }

    private func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let end = base() + state.offset + Self.milliseconds(duration)
                    if end <= base() + state.offset { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, end: end, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
                notifyWatchers()
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Lets go the tests that wait for as many sleepers as there are (all of them when `force`).
    private func notifyWatchers(force: Bool = false) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let count = state.sleepers.count
            let ready = state.watchers.filter { force || $0.count <= count }.map(\.continuation)
            state.watchers.removeAll { force || $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        // Clamped far beyond any test's time, so that adding it to the clock's cannot overflow.
        let (seconds, attoseconds) = duration.components
        return min(max(seconds, -(1 << 40)), 1 << 40) * 1000 + attoseconds / 1_000_000_000_000_000
    }

    deinit {
        // Sleeps nobody moved the clock for (a linger at the end of a test) end as cancelled.
        for sleeper in state.withLock({ $0.sleepers }) { sleeper.continuation.resume(throwing: CancellationError()) }
    }
}
