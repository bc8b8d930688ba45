import Mongo

/// The storage's hot commands, each sharing its round trip with the same command of concurrent
/// requests (`Batchers`): under load one command, one journal commit and one set of thread
/// wake-ups serve many requests; a caller alone goes straight to the database. Nothing is cached:
/// a caller joins only a batch not yet sent, so whatever it reads was read after it asked, and
/// nothing is acknowledged before the command that carries it is.
///
/// `linger`: how long a caller that finds nobody to share with waits for company before it sends
/// (`Coalescer.run(_:linger:send:)`); zero, the default, sends at once.
extension MongoCollection {
    private var batchers: Batchers { Batchers.of(database.client) }

    /// The documents whose `_id` is one of `ids` (in no particular order), asked for in lists of at
    /// most `StorageBatching.idsPerQuery` ids, uncoalesced: for reads of many ids at once.
    func find(ids: [BSONValue], projection: BSONDocument? = nil) async throws -> [BSONDocument] {
        var found: [BSONDocument] = []
        let chunk = StorageBatching.idsPerQuery
        for start in stride(from: 0, to: ids.count, by: chunk) {
            let list = Array(ids[start..<min(start + chunk, ids.count)])
            found += try await find(["_id": ["$in": .array(list)]], projection: projection)
        }
        return found
    }

    /// The documents whose `_id` is one of `ids` (string ids), by `_id`, read in one query with the
    /// ids concurrent callers ask for (`CoalescedReads`). The result holds only the documents of
    /// `ids`, never those concurrent callers asked for.
    func documents(ids: [String], linger: Duration = .zero) async throws -> [String: BSONDocument] {
        try await batchers.reads(of: self).documents(ids, in: self, linger: linger)
    }

    /// The documents of this collection whose `_id` is one of `ids` and those of `other` whose `_id`
    /// is one of `otherIDs` (string ids, a few), each by `_id`, in one command with the same reads
    /// of concurrent callers (`CoalescedJointReads`): one round trip where two reads take two.
    func documents(ids: [String], with other: MongoCollection, ids otherIDs: [String]) async throws -> (
        mine: [String: BSONDocument], other: [String: BSONDocument]
    ) {
        let found = try await batchers.jointReads(of: self, with: other).documents(ids, in: self, otherIDs, in: other)
        return (found.first, found.second)
    }

    /// The output of `pipeline` (which must not write), in one `aggregate` with the pipelines
    /// concurrent callers run on this collection (`CoalescedAggregates`); a pipeline asked for by
    /// several runs once. `expected`: about how many documents it returns (it sizes the reply).
    func aggregateCoalesced(_ pipeline: [BSONDocument], expected: Int) async throws -> [BSONDocument] {
        try await batchers.aggregates(of: self).aggregate(pipeline, expected: expected, in: self)
    }

    /// Inserts one document, in one unordered `insert` with the documents concurrent callers insert
    /// meanwhile. A unique index conflict of this document throws `.duplicateKey`; another caller's
    /// conflict does not concern this one.
    func insertOneCoalesced(_ document: BSONDocument, linger: Duration = .zero) async throws {
        try await batchers.inserts(of: self).run(document, linger: linger) { documents in
            try await insertEach(documents).map { $0.map { .failure($0) } ?? .success(()) }
        }
    }

    /// Updates the first document matching `filter`, or inserts one made from it when none does, in
    /// one unordered `update` with the upserts concurrent callers send meanwhile. Another caller's
    /// error does not concern this one.
    func upsertOneCoalesced(filter: BSONDocument, update: BSONDocument, linger: Duration = .zero) async throws {
        try await batchers.upserts(of: self).run(UpdateStatement(filter: filter, update: update), linger: linger) {
            try await updateEach($0, upsert: true).errors.map { $0.map { .failure($0) } ?? .success(()) }
        }
    }

    /// Updates the first document matching `filter` with update operators, in one unordered `update`
    /// with the statements concurrent callers send meanwhile. Whether it matched: true or false, or
    /// nil when the reply cannot say (`BulkUpdateOutcome.verdict`).
    func updateOneCoalesced(filter: BSONDocument, update: BSONDocument, linger: Duration = .zero) async throws
        -> Bool?
    {
        try await batchers.updates(of: self).run(UpdateStatement(filter: filter, update: update), linger: linger) {
            let outcome = try await updateEach($0)
            let verdict = outcome.verdict
            return outcome.errors.map { $0.map { .failure($0) } ?? .success(verdict) }
        }
    }

    /// `updateOneCoalesced(filter:update:)` made the commit of `documents`: they are stored in
    /// `target` first, and this update is sent only once they are, both steps sharing their
    /// commands with the same writes of concurrent callers (`CoalescedCommits`). An insert whose
    /// failure `isStored` accepts counts as stored. If one of `documents` cannot be stored, that
    /// error is thrown and nothing is updated.
    func updateOneCoalesced(
        filter: BSONDocument, update: BSONDocument, afterStoring documents: [BSONDocument], in target: MongoCollection,
        isStored: @escaping @Sendable (MongoError) -> Bool, linger: Duration = .zero
    ) async throws -> Bool? {
        try await batchers.commits(of: self, after: target).commit(
            .init(documents: documents, filter: filter, update: update, isStored: isStored), in: self, after: target,
            linger: linger)
    }
}
