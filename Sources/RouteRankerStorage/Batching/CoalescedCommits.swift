import Mongo

/// Writes of two steps, shared with the same writes of concurrent callers (`Coalescer`): each
/// caller's documents inserted into one collection, then, once they are stored, its one-document
/// update of another collection, the update being the commit that makes the documents count (say,
/// a head document naming its new parts).
///
/// A batch is two commands in one pool job: one unordered `insert` of every caller's documents,
/// then one unordered `update` of the statements of the callers whose documents are all stored.
/// Apart, each caller's insert and update were two waits, each in a queue of its own kind, and
/// concurrent callers, rarely at the same step at the same moment, seldom shared a command; one
/// queue for both steps gathers them (measured: docs/performance.md).
///
/// Nothing is acknowledged before its command is, and an update is never sent before its
/// documents were acknowledged: a commit never names documents that are not stored.
final class CoalescedCommits: Sendable {
    /// One caller's write: `documents` for the first collection, then the update of the first
    /// document of the second that matches `filter`.
    struct Request: Sendable {
        var documents: [BSONDocument]
        var filter: BSONDocument
        var update: BSONDocument
        /// Whether an insert's failure still leaves the document stored (the caller's rule).
        var isStored: @Sendable (MongoError) -> Bool
    }

    private let coalescer: Coalescer<Request, Bool?>

    /// How many batches have been sent (each one `insert` and one `update`, at most).
    var commandsSent: Int { coalescer.commandsSent }

    /// How many callers wait in pending batches.
    var callersWaiting: Int { coalescer.callersWaiting }

    init(
        maxInFlight: Int, maxBatch: Int, maxWaiting: Int,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        // A batch is weighed by its documents (each may be large) and its statements.
        coalescer = Coalescer(maxInFlight: maxInFlight, maxBatch: maxBatch, maxWaiting: maxWaiting, clock: clock) {
            $0.documents.count + 1
        }
    }

    /// Stores `request.documents` in `target` (a document whose insert fails counts as stored when
    /// `request.isStored` says so), then applies the update to `collection`. Whether the update matched: true
    /// or false, or nil when the reply cannot say (see `BulkUpdateOutcome.verdict`).
    func commit(
        _ request: Request, in collection: MongoCollection, after target: MongoCollection, linger: Duration = .zero
    ) async throws -> Bool? {
        precondition(collection.database.name == target.database.name, "a commit's two collections share a database")
        let (updates, inserts) = (collection.name, target.name)
        return try await coalescer.run(request, linger: linger) { requests in
            try await collection.database.job { job in
                try Self.send(requests, updates: job.collection(updates), inserts: job.collection(inserts))
            }
        }
    }

    /// The two commands of one batch (on a pool thread): what each caller is answered.
    private static func send(_ requests: [Request], updates: MongoJobCollection, inserts: MongoJobCollection)
        throws -> [Result<Bool?, any Error>]
    {
        let documents = requests.flatMap(\.documents)
        let outcomes = try inserts.insertEach(documents)
        var answers: [Result<Bool?, any Error>?] = Array(repeating: nil, count: requests.count)
        var statements: [MongoCollection.UpdateStatement] = []
        var statementOwners: [Int] = []
        var next = 0
        for (index, request) in requests.enumerated() {
            let mine = outcomes[next..<next + request.documents.count]
            next += request.documents.count
            if let failure = mine.lazy.compactMap({ $0 }).first(where: { !request.isStored($0) }) {
                answers[index] = .failure(failure)
            } else {
                statements.append(.init(filter: request.filter, update: request.update))
                statementOwners.append(index)
            }
        }
        if !statements.isEmpty {
            let outcome = try updates.updateEach(statements)
            let verdict = outcome.verdict
            for (owner, error) in zip(statementOwners, outcome.errors) {
                answers[owner] = error.map { .failure($0) } ?? .success(verdict)
            }
        }
        return answers.map { $0! }
    }
}
