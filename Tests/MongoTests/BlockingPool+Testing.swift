import Dispatch

@testable import Mongo

extension BlockingPool {
    /// Submits a call that holds a slot (and a thread) until the returned semaphore is signalled,
    /// and returns once that call runs.
    func occupySlot() -> DispatchSemaphore {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let submission = submit {
            started.signal()
            release.wait()
        }
        precondition(submission == .accepted, "the pool refused the call: \(submission)")
        started.wait()
        return release
    }
}
