import CLibMongoC
import Foundation

extension MongoDatabase {
    /// Runs `body` in a multi-document transaction on one pooled client, then commits with write
    /// concern `{w: "majority", j: true}`; if `body` throws, the transaction is aborted and the error
    /// rethrown, so none of its writes become visible.
    ///
    /// `body` runs synchronously on the pool thread and may run more than once: the whole transaction
    /// is retried (up to `maxAttempts` times) when the server labels a failure
    /// `TransientTransactionError` (e.g. a write conflict with a concurrent transaction), and the
    /// commit is retried when its outcome is `UnknownTransactionCommitResult`. So `body` should only
    /// touch the database through `transaction`. Failures to reach any server are not retried: they
    /// surface as `.unavailable` within the selection timeout.
    public func transaction<T: Sendable>(
        maxAttempts: Int = 5,
        _ body: @escaping @Sendable (MongoTransaction) throws -> T
    ) async throws -> T {
        let name = self.name
        return try await client.withClient { client in
            var error = bson_error_t()
            guard let session = mongoc_client_start_session(client, nil, &error) else { throw MongoError(error) }
            // Destroying a session aborts a transaction still open on it.
            defer { mongoc_client_session_destroy(session) }
            let options = TransactionOptions()
            let transaction = MongoTransaction(client: client, session: session, databaseName: name)
            for attempt in 1...max(1, maxAttempts) {
                let isLast = attempt >= maxAttempts
                if attempt > 1 { Self.backOff(attempt) }
                transaction.recorder.reset()
                guard mongoc_client_session_start_transaction(session, options.pointer, &error) else {
                    throw MongoError(error)
                }
                let value: T
                do {
                    value = try body(transaction)
                } catch {
                    var ignored = bson_error_t()
                    _ = mongoc_client_session_abort_transaction(session, &ignored)
                    let recorder = transaction.recorder
                    if recorder.transientTransactionError && !recorder.serverSelectionFailed && !isLast { continue }
                    throw error
                }
                if try Self.commit(session, maxAttempts: maxAttempts, mayRetryTransaction: !isLast) { return value }
            }
            // Unreachable: the last attempt either returns or throws.
            throw MongoError.other(code: -1, domain: nil, message: "transaction gave up after \(maxAttempts) attempts")
        }
    }

    /// Commits, retrying while the result is unknown. Returns false when a transient failure calls for a
    /// whole new attempt (and `mayRetryTransaction`); true once committed.
    private static func commit(_ session: OpaquePointer, maxAttempts: Int, mayRetryTransaction: Bool) throws -> Bool {
        var attempt = 1
        while true {
            let reply = ReplyBuffer()
            var error = bson_error_t()
            if mongoc_client_session_commit_transaction(session, reply.pointer, &error) { return true }
            let noServer = error.domain == MONGOC_ERROR_SERVER_SELECTION.rawValue
            if !noServer && attempt < maxAttempts && replyHasLabel(reply.pointer, "UnknownTransactionCommitResult") {
                attempt += 1
                continue
            }
            if !noServer && mayRetryTransaction && replyHasLabel(reply.pointer, "TransientTransactionError") {
                return false
            }
            throw MongoError(error, reply: reply.failureDetail)
        }
    }

    /// A short, growing, jittered pause, so two conflicting transactions do not collide again in step.
    private static func backOff(_ attempt: Int) {
        Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.02) * Double(attempt))
    }
}

/// Commit options: write concern `{w: "majority", j: true}` (operations inside a transaction carry
/// none of their own; the server applies the commit's).
private struct TransactionOptions: ~Copyable {
    let pointer: OpaquePointer = mongoc_transaction_opts_new()

    init() {
        let concern = mongoc_write_concern_new()
        defer { mongoc_write_concern_destroy(concern) }
        mongoc_write_concern_set_w(concern, MONGOC_WRITE_CONCERN_W_MAJORITY)
        mongoc_write_concern_set_journal(concern, true)
        mongoc_transaction_opts_set_write_concern(pointer, concern)
    }

    deinit { mongoc_transaction_opts_destroy(pointer) }
}

/// An open transaction, handed to the body of `MongoDatabase.transaction`. Valid only inside that body
/// and only on its thread: it borrows the job's client and session.
public final class MongoTransaction {
    let client: OpaquePointer
    let session: OpaquePointer
    let databaseName: String
    let recorder = ErrorLabelRecorder()

    init(client: OpaquePointer, session: OpaquePointer, databaseName: String) {
        self.client = client
        self.session = session
        self.databaseName = databaseName
    }

    /// The collection `name` (in the transaction's database), bound to this transaction.
    public func collection(_ name: String) -> MongoTransactionCollection {
        MongoTransactionCollection(transaction: self, name: name)
    }
}
