import CLibMongoC
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The connection pool: a `mongoc_client_pool_t` plus the threads that run every blocking libmongoc
/// call. Run it as a lifecycle service, listed *before* the services that use it, so a
/// `ServiceGroup` shuts it down after them; `run()` waits for graceful shutdown, then finishes queued
/// operations and destroys the pool.
///
/// Each operation runs as one job on a pool thread: it pops a client, does its work (reading any
/// cursor to the end), and pushes the client back before the job completes. At most as many jobs as
/// pooled clients run at once, so popping never blocks.
///
/// `@unchecked Sendable`: `mongoc_client_pool_t` is documented thread-safe (pop/push from any thread);
/// a popped `mongoc_client_t` is used by exactly one job on one thread; the pool is destroyed only
/// after `BlockingPool.shutdown()` has joined every thread, guarded by `isShutDown`.
public final class MongoClient: Service, @unchecked Sendable {
    /// The number of pooled clients, which is also the number of database calls that run at once.
    public let poolSize: Int
    /// The connection string with the defaults filled in, for clients outside the pool (a change
    /// stream holds its client for as long as it runs, so it cannot borrow a pooled one).
    let uri: String
    let logger: Logger
    /// The name this client gives the server in its handshake (the URI's `appname`, else the
    /// initializer's), which the server's logs and fault injection can filter on.
    public let appName: String
    private let handle: PoolHandle
    let threads: BlockingPool
    private let isShutDown = Mutex(false)
    /// How long an operation may wait for a free client before it is refused while the database is
    /// down: the server selection timeout, so that a queued request fails about as fast as one that
    /// got a client, instead of waiting for every request ahead of it to time out in turn. A
    /// database that answers, however slowly, refuses nobody this way.
    private let maxWait: Duration
    /// Whether the last operation to finish found no server (`.unavailable`).
    private let databaseDown = Flag()
    /// Threads beyond one per client, so that tasks preferring the pool keep running while every
    /// client is busy.
    private static let spareThreads = 2
    /// State the layers above keep for this client's life (`attachment(_:orMake:)`).
    private let attachments = Mutex<[String: any Sendable]>([:])
    /// Keeps the command observer where libmongoc's callback context points, for the pool's life.
    private let observerBox: MongoCommandCounter.ObserverBox

    /// Creates the pool; nothing connects until the first operation.
    ///
    /// Timeouts belong in the connection string (`serverSelectionTimeoutMS`, `connectTimeoutMS`,
    /// `socketTimeoutMS`). Missing ones get defaults that make a down database fail fast — operations
    /// throw `.unavailable` within about `serverSelectionTimeoutMS` — rather than libmongoc's own
    /// (30 s selection, 5 min socket): 2000, 2000 and 10000 ms. A pooled client keeps retrying server
    /// selection until that timeout (`serverSelectionTryOnce` does not apply to pools), and its
    /// background monitor rescans when an operation finds no server, so service resumes by itself
    /// within about a second of the database coming back.
    ///
    /// Every write uses write concern `{w: "majority", j: true}`, whatever the URI says: without the
    /// journal, a crash of the database loses acknowledged writes.
    ///
    /// - Parameters:
    ///   - uri: a MongoDB connection string.
    ///   - logger: for this client's own messages (libmongoc's go to the `Mongo.libmongoc` logger).
    ///   - appName: sent to the server in the handshake, unless the URI sets `appname`.
    ///   - defaultPoolSize: the number of clients and threads when the URI has no `maxPoolSize`.
    ///   - observer: called for every command this client sends (`MongoCommandObserver`).
    ///   - maxWaitingPerClient: how many operations may wait for a free client, per client; past
    ///     that, operations throw `.overloaded` at once (`waitQueueMultiple` in other drivers). While
    ///     the database does not answer, one that has waited longer than `serverSelectionTimeoutMS`
    ///     throws `.overloaded` when its turn comes.
    /// - Throws: `MongoError.other` for an invalid URI.
    public init(
        uri: String, logger: Logger, appName: String = "swift-mongo", defaultPoolSize: Int = 8,
        maxWaitingPerClient: Int = 32, observer: MongoCommandObserver? = nil
    ) throws {
        MongoRuntime.initializeOnce()
        var error = bson_error_t()
        guard let parsed = mongoc_uri_new_with_error(uri, &error) else {
            throw MongoError.other(
                code: Int(error.code), domain: Int(error.domain), message: MongoError.message(of: error))
        }
        defer { mongoc_uri_destroy(parsed) }

        Self.setDefault(parsed, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 2000)
        Self.setDefault(parsed, MONGOC_URI_CONNECTTIMEOUTMS, 2000)
        Self.setDefault(parsed, MONGOC_URI_SOCKETTIMEOUTMS, 10000)
        Self.setDefault(parsed, MONGOC_URI_MAXPOOLSIZE, Int32(clamping: defaultPoolSize))
        // After a "not primary" or "shutting down" reply, libmongoc marks the server Unknown and
        // selects none until its monitor's next check; a pool's monitor (libmongoc 1.23, streaming)
        // waits out an awaitable `hello` of `heartbeatFrequencyMS`, 10 s by default, before it
        // looks again. Every operation meanwhile waits the selection timeout and fails: measured,
        // one injected error made the whole process answer `503` for 2 to 8 s, its own retry
        // included. 500 ms (libmongoc's minimum) made every such single fault invisible: the
        // driver's retry finds the server again within half a second.
        Self.setDefault(parsed, MONGOC_URI_HEARTBEATFREQUENCYMS, 500)
        let size = Int(mongoc_uri_get_option_as_int32(parsed, MONGOC_URI_MAXPOOLSIZE, 8))
        guard size > 0 else {
            throw MongoError.other(code: -1, domain: nil, message: "maxPoolSize must be positive")
        }

        let concern = mongoc_write_concern_new()
        defer { mongoc_write_concern_destroy(concern) }
        mongoc_write_concern_set_w(concern, MONGOC_WRITE_CONCERN_W_MAJORITY)
        mongoc_write_concern_set_journal(concern, true)
        mongoc_uri_set_write_concern(parsed, concern)

        guard let pool = mongoc_client_pool_new_with_error(parsed, &error) else {
            throw MongoError(error)
        }
        mongoc_client_pool_set_error_api(pool, MONGOC_ERROR_API_VERSION_2)
        self.observerBox = MongoCommandCounter.install(on: pool, observer: observer)
        self.appName = mongoc_uri_get_appname(parsed).map { String(cString: $0) } ?? appName
        if mongoc_uri_get_appname(parsed) == nil {
            mongoc_client_pool_set_appname(pool, appName)
        }
        self.poolSize = size
        self.maxWait = .milliseconds(
            max(1, mongoc_uri_get_option_as_int32(parsed, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 2000)))
        self.uri = String(cString: mongoc_uri_get_string(parsed))
        self.logger = logger
        self.handle = PoolHandle(pointer: pool)
        self.threads = BlockingPool(
            threadCount: size, spareThreads: Self.spareThreads, maxWaiting: size * maxWaitingPerClient, name: "mongo")
    }

    deinit {
        shutdown()
    }

    /// The pool's threads as a task executor. Code that prefers it (`withTaskExecutorPreference`)
    /// runs on them and makes its database calls in place, without a hop to another thread and back.
    public var executor: any TaskExecutor { threads }

    /// Waits for graceful shutdown (or cancellation), then shuts the pool down.
    public func run() async throws {
        try? await gracefulShutdown()
        // This service may itself run under the pool's executor preference; shutting down waits for
        // the pool's threads, so it must not run on one of them.
        await withTaskExecutorPreference(globalConcurrentExecutor) { shutdown() }
    }

    /// Finishes queued operations, then destroys the pool; later operations throw `.unavailable`.
    /// Idempotent. Blocks while operations finish, so call it from a context that may block; called
    /// on one of the pool's own threads, it hands the work to a new thread and returns at once.
    public func shutdown() {
        let first = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let (threads, handle, logger) = (self.threads, self.handle, self.logger)
        let finish: @Sendable () -> Void = {
            threads.shutdown()
            mongoc_client_pool_destroy(handle.pointer)
            logger.debug("MongoDB client pool destroyed")
        }
        if threads.isCurrentThread {
            Thread.detachNewThread(finish)
        } else {
            finish()
        }
    }

    /// Runs `body` on a pool thread with a client popped for this job alone, pushed back before the
    /// caller resumes. `body` must not keep the client (or anything made from it) beyond its return.
    ///
    /// On one of the pool's own threads (a task that prefers `executor`), `body` runs in place when a
    /// client is free, without leaving the thread.
    func withClient<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        let handle = self.handle  // captured instead of self, so the last release never runs on a pool thread
        let databaseDown = self.databaseDown
        if threads.isCurrentThread, threads.acquireSlotHere() {
            defer { threads.releaseSlot() }
            let client = mongoc_client_pool_pop(handle.pointer)!
            defer { mongoc_client_pool_push(handle.pointer, client) }
            let result = Result { try body(client) }
            databaseDown.record(result)
            return try result.get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            let (maxWait, waiting) = (self.maxWait, threads.maxWaiting)
            let submission = threads.submit(
                {
                    let client = mongoc_client_pool_pop(handle.pointer)!
                    let result = Result { try body(client) }
                    mongoc_client_pool_push(handle.pointer, client)
                    databaseDown.record(result)
                    continuation.resume(with: result)
                },
                maxWait: maxWait,
                giveUp: {
                    // Every client stayed busy for the whole wait on a database that does not
                    // answer: this operation has waited its turn long enough.
                    continuation.resume(throwing: MongoError.overloaded(waiting: waiting))
                },
                shouldGiveUp: { databaseDown.isSet })
            switch submission {
            case .accepted: break
            case .full: continuation.resume(throwing: MongoError.overloaded(waiting: threads.maxWaiting))
            case .shutDown:
                continuation.resume(throwing: MongoError.unavailable(message: "the MongoDB client is shut down"))
            }
        }
    }

    /// How many operations may wait for a free client before more are refused (`.overloaded`).
    public var maxWaiting: Int { threads.maxWaiting }

    /// A clock whose sleeps wake on this client's own threads (`MongoPoolClock`).
    public var clock: MongoPoolClock { MongoPoolClock(pool: threads) }

    /// The value the layers above keep under `key` for this client's life (say, the batchers that
    /// let concurrent requests share commands), made by `make` on first use. One value per key: a
    /// later call with the same key gets the first one, whatever its `make`; asking for it as
    /// another type is a programming error.
    public func attachment<Value: Sendable>(_ key: String, orMake make: () -> Value) -> Value {
        attachments.withLock { attachments in
            if let existing = attachments[key] {
                guard let value = existing as? Value else {
                    preconditionFailure("the attachment \(key) is a \(type(of: existing)), not a \(Value.self)")
                }
                return value
            }
            let made = make()
            attachments[key] = made
            return made
        }
    }

    private static func setDefault(_ uri: OpaquePointer, _ option: String, _ value: Int32) {
        if !mongoc_uri_has_option(uri, option) {
            mongoc_uri_set_option_as_int32(uri, option, value)
        }
    }
}

/// Whether the last operation to finish found no server at all: set by a failed server selection,
/// cleared by any other outcome. A reply from the server — an error code, a write concern error —
/// shows the database answering, so it never sets the flag: one bad reply must not make queued
/// calls give up (a process-wide latch on a healthy database).
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .relaxed) }

    func record<T>(_ result: Result<T, any Error>) {
        let down: Bool
        if case .failure(let error as MongoError) = result { down = error.isNoServer } else { down = false }
        value.store(down, ordering: .relaxed)
    }
}

/// The pool pointer, movable into `@Sendable` jobs (see `MongoClient` on why sharing it is safe).
private struct PoolHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
