import Logging
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle

/// Finishes device routes that have been idle for their device's `split_after_s` (API.md: within
/// 30 s, even if no point comes), and completes finishes and deletions a crashed process left.
///
/// Every process runs one; they need no coordination: the state is in the device documents (so
/// it survives restarts), each sweep reads the devices that are due, and every step is guarded
/// (see `DeviceTrips`), so two processes sweeping one device do the work once.
struct IdleRouteSweeper: Service {
    /// The most devices one pass handles; the rest wait for the next pass.
    static let batch = 200

    let devices: DeviceRepository
    let trips: DeviceTrips
    let locks: RouteLocks
    let clock: WallClock
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await PeriodicPasses.run(every: interval, on: clock, logger: logger, what: "idle route sweep") {
            try await sweepOnce()
        }
    }

    /// One pass over the devices that are due now.
    func sweepOnce() async throws {
        for device in try await devices.due(by: clock.now, limit: Self.batch) {
            try await locks.withLock(device.id) {
                // Read again under the lock: a message of this process may have changed it.
                guard let current = try await devices.findAny(id: device.id) else { return }
                try await trips.sweep(current)
            }
        }
    }
}
