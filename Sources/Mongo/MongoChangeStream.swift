import CLibMongoC
import Foundation
import Logging
import Metrics
import Synchronization

/// A database's change stream (`mongoc_database_watch`), read on a thread of its own with a client
/// of its own: never on an event loop, and never holding one of the pool's clients or threads, which
/// requests need (a change stream holds its client for as long as it runs).
///
/// The stream survives database restarts and failovers: after any error it is opened again with
/// `resumeAfter` set to the last resume token libmongoc reported (which includes the server's
/// post-batch token, so an idle stream's position moves on too), so no event is lost or repeated.
/// Only if the server no longer has the history for that token (or no token was ever seen) is it
/// opened afresh, and `onEvent` is told `.restarted`: events may have been missed.
///
/// `@unchecked Sendable`: the libmongoc handles live on the reading thread alone; `state` is a
/// `Mutex`; the callbacks are `@Sendable`.
public final class MongoChangeStream: @unchecked Sendable {
    /// What the reading thread hands to `onEvent`.
    public enum Event: Sendable {
        /// A change document, as the pipeline shaped it.
        case change(BSONDocument)
        /// The stream was opened afresh (not resumed): changes since the last event may be missing.
        case restarted
    }

    private struct State {
        var stopping = false
        var thread: Thread?
    }

    private let uri: String
    /// The stream's client's name in the handshake: its pool's, marked as a stream.
    private let appName: String
    private let databaseName: String
    private let pipeline: [BSONDocument]
    private let options: BSONDocument
    private let logger: Logger
    /// Changes dropped because they could not be read (`/metrics`).
    private static let unreadable = Counter(label: "mongo_change_stream_unreadable_total")
    private let onEvent: @Sendable (Event) -> Void
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    /// A stream of `database`'s changes through `pipeline`; nothing happens before `start()`.
    ///
    /// - Parameters:
    ///   - maxAwaitTimeMS: how long the server holds an idle `getMore`: the latency of `stop()`
    ///     and of noticing a dead connection, not of delivery (a change returns the `getMore` at once).
    ///   - fullDocument: e.g. `"updateLookup"`, so update events carry the document after the change.
    ///   - onEvent: called on the reading thread, in order; it must not block.
    public init(
        database: MongoDatabase, pipeline: [BSONDocument], fullDocument: String? = nil, maxAwaitTimeMS: Int = 250,
        logger: Logger, onEvent: @escaping @Sendable (Event) -> Void
    ) {
        MongoRuntime.initializeOnce()
        self.uri = database.client.uri
        self.appName = database.client.appName + "-stream"
        self.databaseName = database.name
        self.pipeline = pipeline
        var options: BSONDocument = ["maxAwaitTimeMS": .int(maxAwaitTimeMS)]
        if let fullDocument { options["fullDocument"] = .string(fullDocument) }
        self.options = options
        self.logger = logger
        self.onEvent = onEvent
    }

    /// Starts the reading thread (once).
    public func start() {
        state.withLock { state in
            guard state.thread == nil, !state.stopping else { return }
            let thread = Thread { [self] in
                readUntilStopped()
                finished.signal()
            }
            thread.name = "mongo-change-stream"
            state.thread = thread
            thread.start()
        }
    }

    /// Stops the reading thread and waits for it (at most about `maxAwaitTimeMS`, or a connect
    /// timeout while the database is down). Idempotent; blocks, so call it where blocking is allowed.
    public func stop() {
        let started = state.withLock { state in
            defer { state.stopping = true }
            return state.thread != nil && !state.stopping
        }
        if started { finished.wait() }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// Opens the stream, reads it, and on any failure opens it again from the last token, backing off
    /// from 100 ms to 1 s while the database stays unreachable.
    private func readUntilStopped() {
        var token: BSONDocument?
        var backoff = 0.1
        while !isStopping {
            guard let client = makeClient() else {
                Thread.sleep(forTimeInterval: backoff)
                continue
            }
            var resumable = true
            let outcome = read(client: client, token: &token, resumable: &resumable)
            mongoc_client_destroy(client)
            switch outcome {
            case .stopped: return
            case .delivered: backoff = 0.1
            case .failed: backoff = min(backoff * 2, 1)
            }
            if !resumable { token = nil }
            if !isStopping { Thread.sleep(forTimeInterval: backoff) }
        }
    }

    private enum Outcome { case stopped, delivered, failed }

    /// Reads one opening of the stream until it fails or `stop()`; `token` follows every event.
    private func read(
        client: OpaquePointer, token: inout BSONDocument?, resumable: inout Bool
    ) -> Outcome {
        var options = self.options
        if let token { options["resumeAfter"] = .document(token) }
        let pipelineDocument: BSONDocument = ["pipeline": .array(pipeline.map(BSONValue.document))]
        let database = mongoc_client_get_database(client, databaseName)!
        defer { mongoc_database_destroy(database) }
        let stream: OpaquePointer
        do {
            stream = try pipelineDocument.withBSONPointer { pipeline in
                try options.withBSONPointer { mongoc_database_watch(database, pipeline, $0) }
            }
        } catch {
            logger.error("change stream: cannot encode its pipeline", metadata: ["error": "\(error)"])
            return .failed
        }
        defer { mongoc_change_stream_destroy(stream) }
        // An opening without a token starts "now": whatever happened before it is unknown, so the
        // consumer is told (on the first opening too: it may already have readers that started
        // earlier), once the server has accepted the stream.
        var announceRestart = token == nil
        var delivered = false
        var document: OpaquePointer?
        while !isStopping {
            let hasNext = mongoc_change_stream_next(stream, &document)
            var ignored = bson_error_t()
            if announceRestart && (hasNext || !mongoc_change_stream_error_document(stream, &ignored, nil)) {
                announceRestart = false
                onEvent(.restarted)
            }
            if hasNext, let document {
                do {
                    let change = try BSONDocument(copying: document)
                    delivered = true
                    onEvent(.change(change))
                } catch {
                    // A change this wrapper cannot read is dropped, but never silently: its
                    // followers may miss it until their next change, so it is logged and counted.
                    Self.unreadable.increment()
                    logger.error("change stream: an unreadable change was dropped", metadata: ["error": "\(error)"])
                }
            } else {
                var error = bson_error_t()
                var reply: OpaquePointer?
                if mongoc_change_stream_error_document(stream, &error, &reply) {
                    // 280 ChangeStreamFatalError, 286 ChangeStreamHistoryLost: the token is useless.
                    if error.code == 280 || error.code == 286 { resumable = false }
                    logger.warning(
                        "change stream interrupted; resuming",
                        metadata: ["error": "\(MongoError(error))", "code": "\(error.code)"])
                    return delivered ? .delivered : .failed
                }
            }
            if let current = mongoc_change_stream_get_resume_token(stream),
                let copied = try? BSONDocument(copying: current)
            {
                token = copied
            }
        }
        return .stopped
    }

    private func makeClient() -> OpaquePointer? {
        var error = bson_error_t()
        guard let parsed = mongoc_uri_new_with_error(uri, &error) else { return nil }
        defer { mongoc_uri_destroy(parsed) }
        guard let client = mongoc_client_new_from_uri_with_error(parsed, &error) else {
            logger.warning("change stream: cannot create a client", metadata: ["error": "\(MongoError(error))"])
            return nil
        }
        mongoc_client_set_error_api(client, MONGOC_ERROR_API_VERSION_2)
        mongoc_client_set_appname(client, appName)
        return client
    }
}
