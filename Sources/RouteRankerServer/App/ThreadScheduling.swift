import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How the kernel schedules the server's threads (`routeranker serve --scheduling`).
///
/// A request is handed from thread to thread: the event loop wakes a pool thread to run its
/// handler, and the handler's answer wakes the event loop again. Under Linux's default policy the
/// woken thread often preempts the one that woke it, on the same core, in the middle of its work:
/// two context switches where none were needed. `SCHED_BATCH` tells the kernel these threads are
/// throughput work, which it does not preempt on a wake-up; the woken thread runs on another core
/// or when the waker goes to sleep, which it does a few microseconds later. Measured on 2 cores
/// (`scripts/bench-live`, `scripts/bench-read`): 7–12 % less CPU per live append, 5–7 % per read.
/// The threads' nice value is unchanged, and they still run at once on an idle core.
public enum ThreadScheduling: String, CaseIterable, Sendable {
    /// `SCHED_BATCH` for every thread of the process (`serve`'s default).
    case batch
    /// The policy the process was started with, left as it is (the kernel's default, or what the
    /// operator set with `chrt` or systemd's `CPUSchedulingPolicy=`).
    case unchanged

    /// Linux's `SCHED_BATCH` (`<linux/sched.h>`; part of the kernel ABI, not exported by Swift's
    /// Glibc module).
    private static let schedBatch: Int32 = 3

    /// Applies the policy to every thread the process has now. Threads started later inherit it
    /// from the thread that starts them (`pthread_create`'s default `PTHREAD_INHERIT_SCHED`), so
    /// this runs once, before the server starts its threads. Returns why it failed, if it did; a
    /// failure leaves the server working, only without the hint.
    public func apply() -> String? {
        guard self == .batch else { return nil }
        #if os(Linux)
            let threads: [String]
            do {
                threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
            } catch {
                return "cannot list the process's threads: \(error)"
            }
            var parameters = sched_param(sched_priority: 0)
            for thread in threads {
                guard let id = pid_t(thread) else { continue }
                // A thread that exited since the listing is gone (ESRCH): nothing left to change.
                if sched_setscheduler(id, Self.schedBatch, &parameters) != 0, errno != ESRCH {
                    let reason = String(cString: strerror(errno))
                    return "sched_setscheduler(SCHED_BATCH) failed for thread \(id): \(reason)"
                }
            }
            return nil
        #else
            return "SCHED_BATCH exists only on Linux"
        #endif
    }
}
