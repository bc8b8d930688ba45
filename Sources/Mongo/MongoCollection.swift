import CLibMongoC

/// A collection. Every method runs as one job on the client's pool threads, reading any cursor to the
/// end inside the job. Writes use the client's write concern, `{w: "majority", j: true}`; inserts,
/// updates and deletes are retried once by libmongoc on a transient error (retryable writes).
public struct MongoCollection: Sendable {
    /// The database this collection is in.
    public let database: MongoDatabase
    /// The collection name.
    public let name: String

    /// Inserts one document; a unique index conflict throws `.duplicateKey`.
    public func insertOne(_ document: BSONDocument) async throws {
        try await run { try $0.insertOne(document) }
    }

    /// Inserts documents in one bulk write. With `ordered`, the first failure stops the rest (earlier
    /// ones stay inserted); without, every document is tried. A unique index conflict throws
    /// `.duplicateKey`.
    public func insertMany(_ documents: [BSONDocument], ordered: Bool = true) async throws {
        try await run { try $0.insertMany(documents, ordered: ordered) }
    }

    /// The documents matching `filter`, read fully. `limit` 0 means no limit.
    public func find(
        _ filter: BSONDocument = [:], sort: BSONDocument? = nil, skip: Int = 0, limit: Int = 0,
        projection: BSONDocument? = nil
    ) async throws -> [BSONDocument] {
        try await run { try $0.findAll(filter, sort: sort, skip: skip, limit: limit, projection: projection) }
    }

    /// The documents whose `_id` is one of `ids` (in no particular order), asked for in lists of at
    /// most `chunk` ids. A long `$in` costs SecantusDB time quadratic in its length (1,000 ids:
    /// 700 ms; ten lists of 100: 107 ms), and MongoDB no more than a round trip per list.
    public func find(ids: [BSONValue], projection: BSONDocument? = nil, chunk: Int = 100) async throws
        -> [BSONDocument]
    {
        var found: [BSONDocument] = []
        for start in stride(from: 0, to: ids.count, by: chunk) {
            let list = Array(ids[start..<min(start + chunk, ids.count)])
            found += try await find(["_id": ["$in": .array(list)]], projection: projection)
        }
        return found
    }

    /// The documents whose `_id` is one of `ids` (string ids), by `_id`, read in one query together
    /// with the ids that concurrent callers ask for (`CoalescedReads`): under load, one round trip
    /// serves many requests. Every document is read after this call began; nothing is cached. The
    /// result holds only the documents of `ids`, never those concurrent callers asked for.
    ///
    /// `linger`: how long a read that finds no other to share with waits for some (see
    /// `Coalescer.run(_:linger:send:)`); zero, the default, reads at once.
    public func documents(ids: [String], linger: Duration = .zero) async throws -> [String: BSONDocument] {
        try await database.client.coalescedReads(of: self).documents(ids, in: self, linger: linger)
    }

    /// The documents of this collection whose `_id` is one of `ids` and those of `other` whose `_id`
    /// is one of `otherIDs` (string ids, a few), each by `_id`, read in one command together with
    /// the same reads of concurrent callers (`CoalescedJointReads`): one round trip where
    /// `documents(ids:)` on each would take two. Every document is read after this call began;
    /// nothing is cached. Each result holds only the documents of its own ids.
    public func documents(ids: [String], with other: MongoCollection, ids otherIDs: [String]) async throws -> (
        mine: [String: BSONDocument], other: [String: BSONDocument]
    ) {
        let found = try await database.client.coalescedJointReads(of: self, with: other)
            .documents(ids, in: self, otherIDs, in: other)
        return (found.first, found.second)
    }

    /// The output of `pipeline`, run in one `aggregate` together with the pipelines that concurrent
    /// callers run on this collection (`CoalescedAggregates`): under load, one round trip serves
    /// many requests, and a pipeline asked for by several runs once. Everything is read after this
    /// call began; nothing is cached. `expected` is about how many documents the pipeline returns
    /// (it sizes the first reply). The pipeline must not write.
    public func aggregateCoalesced(_ pipeline: [BSONDocument], expected: Int) async throws -> [BSONDocument] {
        try await database.client.coalescedAggregates(of: self).aggregate(pipeline, expected: expected, in: self)
    }

    /// Inserts one document, in one unordered `insert` with the documents that concurrent callers
    /// insert into this collection meanwhile (`Coalescer`): under load, one command and one
    /// journal commit serve many requests. Acknowledged, like `insertOne`, only once the command
    /// is; a unique index conflict of this document throws `.duplicateKey`, and another caller's
    /// conflict does not concern this one. `linger`: as for `documents(ids:linger:)`.
    public func insertOneCoalesced(_ document: BSONDocument, linger: Duration = .zero) async throws {
        try await database.client.coalescedInserts(of: self).run(document, linger: linger) { documents in
            try await run { try $0.insertEach(documents) }.map { $0.map { .failure($0) } ?? .success(()) }
        }
    }

    /// Updates the first document matching `filter`, or inserts one made from it when none does,
    /// in one unordered `update` with the upserts that concurrent callers send to this collection
    /// meanwhile (`Coalescer`). Acknowledged only once that command is; another caller's error
    /// does not concern this one. Upserts gather apart from `updateOneCoalesced`'s statements, whose
    /// verdict rests on the batch's count of matches. `linger`: as for `documents(ids:linger:)`.
    public func upsertOneCoalesced(filter: BSONDocument, update: BSONDocument, linger: Duration = .zero)
        async throws
    {
        try await database.client.coalescedUpserts(of: self).run(
            UpdateStatement(filter: filter, update: update), linger: linger
        ) { statements in
            let (errors, _) = try await run {
                try $0.updateEach(statements.map { ($0.filter, $0.update) }, upsert: true)
            }
            return errors.map { $0.map { .failure($0) } ?? .success(()) }
        }
    }

    /// One update statement of `updateOneCoalesced`: the first document matching `filter`, updated
    /// with update operators.
    public struct UpdateStatement: Sendable {
        public var filter: BSONDocument
        public var update: BSONDocument
    }

    /// Updates the first document matching `filter` with update operators, in one unordered
    /// `update` with the statements that concurrent callers send to this collection meanwhile
    /// (`Coalescer`). Whether it matched a document: true or false, or nil when the reply cannot
    /// say: it counts matches only in total, so when some statements of a batch matched and some
    /// did not, which did is for the caller to find out (say, by a value its update set). Use it
    /// for updates whose statements, when they match, always change the document. `linger`: as for
    /// `documents(ids:linger:)`.
    public func updateOneCoalesced(filter: BSONDocument, update: BSONDocument, linger: Duration = .zero)
        async throws -> Bool?
    {
        try await database.client.coalescedUpdates(of: self).run(
            UpdateStatement(filter: filter, update: update), linger: linger
        ) { statements in
            let (errors, matched) = try await run { try $0.updateEach(statements.map { ($0.filter, $0.update) }) }
            let applied = errors.count { $0 == nil }
            let verdict: Bool? = matched == applied ? true : matched == 0 ? false : nil
            return errors.map { $0.map { .failure($0) } ?? .success(verdict) }
        }
    }

    /// `updateOneCoalesced(filter:update:)` made the commit of `documents`: they are stored in
    /// `target` first, and this update is sent only once they are, both steps sharing their
    /// commands with the same writes of concurrent callers (`CoalescedCommits`). An insert whose
    /// failure `isStored` accepts (say, a duplicate key, for keys only this write uses) counts as
    /// stored. If one of `documents` cannot be stored, that error is thrown and nothing is updated.
    public func updateOneCoalesced(
        filter: BSONDocument, update: BSONDocument, afterStoring documents: [BSONDocument], in target: MongoCollection,
        isStored: @escaping @Sendable (MongoError) -> Bool, linger: Duration = .zero
    ) async throws -> Bool? {
        try await database.client.coalescedCommits(of: self, after: target).commit(
            .init(documents: documents, filter: filter, update: update, isStored: isStored), in: self, after: target,
            linger: linger)
    }

    /// The first document matching `filter` (in natural order), or nil.
    public func findOne(_ filter: BSONDocument, projection: BSONDocument? = nil) async throws -> BSONDocument? {
        try await find(filter, limit: 1, projection: projection).first
    }

    /// Updates the first document matching `filter` with update operators (`$set`, `$inc`,
    /// `$setOnInsert`, …). `arrayFilters` binds the `$[name]` placeholders of the update.
    @discardableResult
    public func updateOne(
        filter: BSONDocument, update: BSONDocument, upsert: Bool = false, arrayFilters: [BSONDocument]? = nil
    ) async throws -> UpdateResult {
        try await run {
            try $0.update(
                filter: filter, update: .operators(update), upsert: upsert, arrayFilters: arrayFilters, many: false)
        }
    }

    /// Updates the first document matching `filter` with an aggregation pipeline (`$set` stages that can
    /// compute from the document's current fields).
    @discardableResult
    public func updateOne(
        filter: BSONDocument, pipeline: [BSONDocument], upsert: Bool = false
    ) async throws -> UpdateResult {
        try await run {
            try $0.update(filter: filter, update: .pipeline(pipeline), upsert: upsert, arrayFilters: nil, many: false)
        }
    }

    /// Updates every document matching `filter` with update operators.
    @discardableResult
    public func updateMany(
        filter: BSONDocument, update: BSONDocument, upsert: Bool = false, arrayFilters: [BSONDocument]? = nil
    ) async throws -> UpdateResult {
        try await run {
            try $0.update(
                filter: filter, update: .operators(update), upsert: upsert, arrayFilters: arrayFilters, many: true)
        }
    }

    /// Deletes the first document matching `filter`; returns how many were deleted (0 or 1).
    @discardableResult
    public func deleteOne(_ filter: BSONDocument) async throws -> Int {
        try await run { try $0.delete(filter, many: false) }
    }

    /// Deletes every document matching `filter`; returns how many.
    @discardableResult
    public func deleteMany(_ filter: BSONDocument) async throws -> Int {
        try await run { try $0.delete(filter, many: true) }
    }

    /// Counts the documents matching `filter` (an exact count, not the collection's metadata estimate).
    public func count(_ filter: BSONDocument = [:]) async throws -> Int {
        try await run { try $0.count(filter) }
    }

    /// Runs an aggregation pipeline and returns all of its output; `firstBatch` as in
    /// `MongoJobCollection.aggregate`.
    public func aggregate(_ pipeline: [BSONDocument], firstBatch: Int? = nil) async throws -> [BSONDocument] {
        try await run { operations in
            var found: [BSONDocument] = []
            try operations.aggregate(pipeline, firstBatch: firstBatch, batchSize: 0) { found = $0 }
            return found
        }
    }

    /// Creates indexes (with the `createIndexes` command); indexes that already exist with the same
    /// specification are left alone, so this is safe at every start-up.
    public func createIndexes(_ indexes: [MongoIndex]) async throws {
        guard !indexes.isEmpty else { return }
        let command: BSONDocument = [
            "createIndexes": .string(name),
            "indexes": .array(indexes.map { .document($0.specification) }),
        ]
        try await run { _ = try $0.writeCommand(command) }
    }

    /// Drops the index `name`; an index or collection that does not exist is not an error.
    public func dropIndex(named indexName: String) async throws {
        let command: BSONDocument = ["dropIndexes": .string(name), "index": .string(indexName)]
        do {
            try await run { _ = try $0.writeCommand(command) }
        } catch MongoError.notFound {
            return
        } catch MongoError.other(let code, _, _) where code == 27 {
            return  // IndexNotFound
        }
    }

    /// Drops the collection and its indexes; dropping a collection that does not exist is not an error.
    public func drop() async throws {
        let command: BSONDocument = ["drop": .string(name)]
        do {
            try await run { _ = try $0.writeCommand(command) }
        } catch MongoError.notFound {
            return
        }
    }

    // MARK: - Plumbing

    /// Runs `body` in one pool job with this collection's handle.
    func run<T: Sendable>(_ body: @escaping @Sendable (CollectionOperations) throws -> T) async throws -> T {
        let databaseName = database.name
        let name = self.name
        return try await database.client.withClient { client in
            let collection = mongoc_client_get_collection(client, databaseName, name)!
            defer { mongoc_collection_destroy(collection) }
            return try body(CollectionOperations(collection: collection))
        }
    }

    /// Runs `body` in one pool job with this collection's handle and `other`'s, on one client.
    func run<T: Sendable>(
        with other: MongoCollection,
        _ body: @escaping @Sendable (CollectionOperations, CollectionOperations) throws -> T
    ) async throws -> T {
        let (databaseName, name) = (database.name, self.name)
        let (otherDatabase, otherName) = (other.database.name, other.name)
        return try await database.client.withClient { client in
            let collection = mongoc_client_get_collection(client, databaseName, name)!
            defer { mongoc_collection_destroy(collection) }
            let second = mongoc_client_get_collection(client, otherDatabase, otherName)!
            defer { mongoc_collection_destroy(second) }
            return try body(CollectionOperations(collection: collection), CollectionOperations(collection: second))
        }
    }

    /// libmongoc's find options; zero `skip`/`limit`/`batchSize` mean "not set".
    static func findOptions(
        sort: BSONDocument?, skip: Int, limit: Int, projection: BSONDocument?, batchSize: Int
    ) -> BSONDocument {
        var options = BSONDocument()
        if let sort { options["sort"] = .document(sort) }
        if skip > 0 { options["skip"] = .int(skip) }
        if limit > 0 { options["limit"] = .int(limit) }
        if let projection { options["projection"] = .document(projection) }
        if batchSize > 0 { options["batchSize"] = .int(batchSize) }
        return options
    }
}
