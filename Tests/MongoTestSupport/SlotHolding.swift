import Dispatch

@testable import Mongo

extension MongoClient {
    /// Holds one of the client's slots for database calls (and a thread) with a call that blocks
    /// until the returned semaphore is signalled; returns once that call runs. With a client of one
    /// slot (`withOneSlotClient`), every call after it queues.
    public func occupyOneSlot() -> DispatchSemaphore {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let submission = threads.submit {
            started.signal()
            release.wait()
        }
        precondition(submission == .accepted, "the pool refused the call: \(submission)")
        started.wait()
        return release
    }
}
