import CLibMongoC

/// A collection inside a transaction: the same operations as `MongoCollection`, synchronous, all bound
/// to the transaction's session, so their writes become visible together at commit or not at all.
public struct MongoTransactionCollection {
    let transaction: MongoTransaction
    /// The collection name.
    public let name: String

    /// Inserts one document; a unique index conflict throws `.duplicateKey`.
    public func insertOne(_ document: BSONDocument) throws {
        try run { try $0.insertOne(document) }
    }

    /// Inserts documents in order (stopping at the first failure when `ordered`).
    public func insertMany(_ documents: [BSONDocument], ordered: Bool = true) throws {
        try run { try $0.insertMany(documents, ordered: ordered) }
    }

    /// Updates the first document matching `filter` with update operators.
    @discardableResult
    public func updateOne(
        filter: BSONDocument, update: BSONDocument, upsert: Bool = false, arrayFilters: [BSONDocument]? = nil
    ) throws -> UpdateResult {
        try run {
            try $0.update(
                filter: filter, update: .operators(update), upsert: upsert, arrayFilters: arrayFilters, many: false)
        }
    }

    /// Updates the first document matching `filter` with an aggregation pipeline.
    @discardableResult
    public func updateOne(filter: BSONDocument, pipeline: [BSONDocument], upsert: Bool = false) throws -> UpdateResult {
        try run {
            try $0.update(filter: filter, update: .pipeline(pipeline), upsert: upsert, arrayFilters: nil, many: false)
        }
    }

    /// Updates every document matching `filter` with update operators.
    @discardableResult
    public func updateMany(
        filter: BSONDocument, update: BSONDocument, upsert: Bool = false, arrayFilters: [BSONDocument]? = nil
    ) throws -> UpdateResult {
        try run {
            try $0.update(
                filter: filter, update: .operators(update), upsert: upsert, arrayFilters: arrayFilters, many: true)
        }
    }

    /// The first document matching `filter` (as the transaction sees it), or nil.
    public func findOne(_ filter: BSONDocument, projection: BSONDocument? = nil) throws -> BSONDocument? {
        try find(filter, limit: 1, projection: projection).first
    }

    /// The documents matching `filter`, read fully.
    public func find(
        _ filter: BSONDocument = [:], sort: BSONDocument? = nil, skip: Int = 0, limit: Int = 0,
        projection: BSONDocument? = nil
    ) throws -> [BSONDocument] {
        try run { try $0.findAll(filter, sort: sort, skip: skip, limit: limit, projection: projection) }
    }

    /// Deletes the first document matching `filter`; returns how many were deleted (0 or 1).
    @discardableResult
    public func deleteOne(_ filter: BSONDocument) throws -> Int {
        try run { try $0.delete(filter, many: false) }
    }

    /// Deletes every document matching `filter`; returns how many.
    @discardableResult
    public func deleteMany(_ filter: BSONDocument) throws -> Int {
        try run { try $0.delete(filter, many: true) }
    }

    /// Counts the documents matching `filter`.
    public func count(_ filter: BSONDocument = [:]) throws -> Int {
        try run { try $0.count(filter) }
    }

    private func run<T>(_ body: (CollectionOperations) throws -> T) throws -> T {
        let collection = mongoc_client_get_collection(transaction.client, transaction.databaseName, name)!
        defer { mongoc_collection_destroy(collection) }
        return try body(
            CollectionOperations(collection: collection, session: transaction.session, recorder: transaction.recorder))
    }
}
