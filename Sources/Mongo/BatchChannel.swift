import Foundation

/// A one-slot hand-off between a producer on a blocking pool thread and an async consumer: the producer
/// blocks while the slot is full (that is the backpressure), the consumer suspends while it is empty.
///
/// `@unchecked Sendable`: every field is read and written only while holding `condition`'s lock, and
/// continuations are resumed after unlocking.
final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let stallTimeout: Double
    private var slot: [BSONDocument]?
    private var waiting: CheckedContinuation<[BSONDocument]?, any Error>?
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false

    init(stallTimeout: Double) {
        self.stallTimeout = stallTimeout
    }

    /// Producer: hands over a batch, blocking until the consumer has taken the previous one.
    /// - Throws: `CancellationError` once the consumer is gone, or `MongoError.other` if it stalls.
    func send(_ batch: [BSONDocument]) throws {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: stallTimeout)
        while slot != nil && !cancelled {
            if !condition.wait(until: deadline) {
                cancelled = true
                failure = MongoError.other(
                    code: -1, domain: nil, message: "stream consumer stalled for \(stallTimeout) s; cursor closed")
            }
        }
        if cancelled {
            condition.unlock()
            throw CancellationError()
        }
        if let consumer = waiting {
            waiting = nil
            condition.unlock()
            consumer.resume(returning: batch)
        } else {
            slot = batch
            condition.unlock()
        }
    }

    /// Producer: no more batches; `error` if the read failed.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        if failure == nil, let error, !(error is CancellationError) { failure = error }
        guard let consumer = waiting else {
            condition.unlock()
            return
        }
        waiting = nil
        let outcome = takeOutcome()
        condition.unlock()
        consumer.resume(with: outcome)
    }

    /// Consumer: stop; wakes a blocked producer and a suspended consumer.
    func cancel() {
        condition.lock()
        cancelled = true
        slot = nil
        let consumer = waiting
        waiting = nil
        condition.broadcast()
        condition.unlock()
        consumer?.resume(throwing: CancellationError())
    }

    /// Consumer: the next batch, or nil at the end.
    func receive() async throws -> [BSONDocument]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                if let batch = slot {
                    slot = nil
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: batch)
                } else if finished || cancelled {
                    let outcome = takeOutcome()
                    condition.unlock()
                    continuation.resume(with: outcome)
                } else {
                    waiting = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// What the consumer sees once nothing more will come: the failure once, then the end.
    /// Call with the lock held.
    private func takeOutcome() -> Result<[BSONDocument]?, any Error> {
        guard let error = failure else { return .success(nil) }
        failure = nil
        return .failure(error)
    }
}
