import CLibMongoC

extension MongoDatabase {
    /// Runs `body` as one pool job: several reads for one request take one client and one trip to
    /// a pool thread and back, instead of one per operation (each trip is two thread wake-ups,
    /// which a profile of a typical read showed costing more than the reads themselves).
    ///
    /// `body` runs synchronously on the pool thread; it must only touch the database through `job`
    /// and must not keep it, nor block on anything but the database.
    public func job<T: Sendable>(_ body: @escaping @Sendable (MongoJob) throws -> T) async throws -> T {
        let name = self.name
        return try await client.withClient { client in
            try body(MongoJob(client: client, databaseName: name))
        }
    }
}

/// The client of one pool job, handed to the body of `MongoDatabase.job`. Valid only inside that
/// body and on its thread.
public struct MongoJob {
    let client: OpaquePointer
    let databaseName: String

    /// The collection `name` in the job's database.
    public func collection(_ name: String) -> MongoJobCollection {
        MongoJobCollection(job: self, name: name)
    }
}

/// A collection inside a pool job: the reads of `MongoCollection` and its unordered bulk writes,
/// synchronous.
public struct MongoJobCollection {
    let job: MongoJob
    /// The collection name.
    public let name: String

    /// The documents matching `filter`, read fully. `limit` 0 means no limit.
    public func find(
        _ filter: BSONDocument = [:], sort: BSONDocument? = nil, skip: Int = 0, limit: Int = 0,
        projection: BSONDocument? = nil
    ) throws -> [BSONDocument] {
        try run { try $0.findAll(filter, sort: sort, skip: skip, limit: limit, projection: projection) }
    }

    /// The first document matching `filter` (in natural order), or nil.
    public func findOne(_ filter: BSONDocument, projection: BSONDocument? = nil) throws -> BSONDocument? {
        try find(filter, limit: 1, projection: projection).first
    }

    /// Counts the documents matching `filter`.
    public func count(_ filter: BSONDocument = [:]) throws -> Int {
        try run { try $0.count(filter) }
    }

    /// Runs an aggregation pipeline and returns all of its output. `firstBatch`, when given, is how
    /// many documents the caller expects at most: the first reply is sized to hold them all (the
    /// server's default is 101), which saves `getMore` round trips.
    public func aggregate(_ pipeline: [BSONDocument], firstBatch: Int? = nil) throws -> [BSONDocument] {
        try run { operations in
            var found: [BSONDocument] = []
            try operations.aggregate(pipeline, firstBatch: firstBatch, batchSize: 0) { found = $0 }
            return found
        }
    }

    /// `MongoCollection.insertEach(_:)`, inside the job.
    public func insertEach(_ documents: [BSONDocument]) throws -> [MongoError?] {
        try run { try $0.insertEach(documents) }
    }

    /// `MongoCollection.updateEach(_:upsert:)`, inside the job.
    public func updateEach(_ statements: [MongoCollection.UpdateStatement], upsert: Bool = false) throws
        -> BulkUpdateOutcome
    {
        try run { try $0.updateEach(statements, upsert: upsert) }
    }

    private func run<T>(_ body: (CollectionOperations) throws -> T) throws -> T {
        let collection = mongoc_client_get_collection(job.client, job.databaseName, name)!
        defer { mongoc_collection_destroy(collection) }
        return try body(CollectionOperations(collection: collection))
    }
}
