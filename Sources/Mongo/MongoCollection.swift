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

    /// Inserts `documents` in one unordered `insert`: what the database said of each document, nil
    /// for inserted (a unique index conflict is `.duplicateKey`). Throws only what concerns the
    /// command as a whole: it did not go out, its write concern was not met, or the reply did not
    /// account for every document. No error of a single document is ever thrown for the whole.
    public func insertEach(_ documents: [BSONDocument]) async throws -> [MongoError?] {
        try await run { try $0.insertEach(documents) }
    }

    /// One statement of `updateEach`: the first document matching `filter`, updated with update
    /// operators.
    public struct UpdateStatement: Sendable {
        public var filter: BSONDocument
        public var update: BSONDocument

        public init(filter: BSONDocument, update: BSONDocument) {
            self.filter = filter
            self.update = update
        }
    }

    /// Applies `statements` in one unordered `update`, each to the first document its filter matches
    /// (with `upsert`, inserting one where none does): what the database said of each statement (nil
    /// for none), and how many matched in all; the reply does not say which, and upserted documents
    /// are not among them. Throws only what concerns the command as a whole, as `insertEach`.
    public func updateEach(_ statements: [UpdateStatement], upsert: Bool = false) async throws -> BulkUpdateOutcome {
        try await run { try $0.updateEach(statements, upsert: upsert) }
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
