import CLibMongoC
import Metrics
import Synchronization

/// Counts every command the driver sends, by name, as the `mongo_operations_total{op}` counter
/// (`find`, `insert`, `update`, `getMore`, `commitTransaction`, …): the database round trips a
/// request costs, getMores and retries included, because it listens to libmongoc's own
/// command-monitoring events rather than to this wrapper's calls.
enum MongoCommandCounter {
    /// One counter per command name, made once: a metrics factory lookup per event would cost more
    /// than the event.
    private static let counters = Mutex<[String: Counter]>([:])

    static func increment(_ name: String) {
        let counter = counters.withLock { counters in
            if let existing = counters[name] { return existing }
            let made = Counter(label: "mongo_operations_total", dimensions: [("op", name)])
            counters[name] = made
            return made
        }
        counter.increment()
    }

    /// Installs the callback on `pool`; must run before the pool hands out its first client. The same
    /// callback writes the test-only command log (`CommandLog`, off unless `ROUTERANKER_COMMAND_LOG`
    /// names a file).
    static func install(on pool: OpaquePointer) {
        guard let callbacks = mongoc_apm_callbacks_new() else { return }
        defer { mongoc_apm_callbacks_destroy(callbacks) }
        mongoc_apm_set_command_started_cb(callbacks) { event in
            guard let event, let name = mongoc_apm_command_started_get_command_name(event) else { return }
            MongoCommandCounter.increment(String(cString: name))
            CommandLog.record(event)
        }
        mongoc_client_pool_set_apm_callbacks(pool, callbacks, nil)
    }
}
