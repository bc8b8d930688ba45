import CLibMongoC
import Metrics
import Synchronization

/// Counts every command the driver sends, by name, as the `mongo_operations_total{op}` counter
/// (`find`, `insert`, `update`, `getMore`, `commitTransaction`, …): the database round trips a
/// request costs, getMores and retries included, because it listens to libmongoc's own
/// command-monitoring events rather than to this wrapper's calls. The same events reach the
/// client's observer, if it has one.
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

    /// Installs the callback on `pool`, handing each event to `observer` too; must run before the
    /// pool hands out its first client. The returned box holds the observer for libmongoc's
    /// callback context: keep it for as long as the pool lives.
    static func install(on pool: OpaquePointer, observer: MongoCommandObserver?) -> ObserverBox {
        let box = ObserverBox(observer)
        guard let callbacks = mongoc_apm_callbacks_new() else { return box }
        defer { mongoc_apm_callbacks_destroy(callbacks) }
        mongoc_apm_set_command_started_cb(callbacks) { event in
            guard let event, let name = mongoc_apm_command_started_get_command_name(event) else { return }
            MongoCommandCounter.increment(String(cString: name))
            guard let context = mongoc_apm_command_started_get_context(event) else { return }
            let box = Unmanaged<ObserverBox>.fromOpaque(context).takeUnretainedValue()
            guard let observer = box.observer, let started = MongoCommandStarted(event) else { return }
            observer(started)
        }
        mongoc_client_pool_set_apm_callbacks(pool, callbacks, Unmanaged.passUnretained(box).toOpaque())
        return box
    }

    /// A client's observer, kept where libmongoc's callback context can point.
    final class ObserverBox: Sendable {
        let observer: MongoCommandObserver?

        init(_ observer: MongoCommandObserver?) {
            self.observer = observer
        }
    }
}
