/// What an update did.
public struct UpdateResult: Sendable, Equatable {
    /// Documents the filter matched.
    public var matchedCount: Int
    /// Documents actually changed (a match already in the target state is not counted).
    public var modifiedCount: Int
    /// The `_id` of the document an upsert inserted; nil when nothing was inserted.
    public var upsertedID: BSONValue?

    public init(matchedCount: Int, modifiedCount: Int, upsertedID: BSONValue?) {
        self.matchedCount = matchedCount
        self.modifiedCount = modifiedCount
        self.upsertedID = upsertedID
    }
}

/// The second argument of an update: operators (`["$set": …]`) or an aggregation pipeline.
enum MongoUpdate: Sendable, Equatable {
    /// An update document of operators such as `$set`, `$inc`, `$push`, `$setOnInsert`.
    case operators(BSONDocument)
    /// An aggregation pipeline of `$set`/`$unset`/`$replaceWith`/… stages, which can compute new values
    /// from the document's current fields.
    case pipeline([BSONDocument])

    /// The form libmongoc expects: pipelines as an array-shaped document ("0", "1", …).
    var bson: BSONDocument {
        switch self {
        case .operators(let document):
            return document
        case .pipeline(let stages):
            var document = BSONDocument()
            for (i, stage) in stages.enumerated() { document.append(String(i), .document(stage)) }
            return document
        }
    }
}

/// What the database said of the statements of one unordered `update` (`updateEach`).
public struct BulkUpdateOutcome: Sendable {
    /// Each statement's error, in order; nil for a statement that went through.
    public var errors: [MongoError?]
    /// How many statements matched a document, in all.
    public var matched: Int

    public init(errors: [MongoError?], matched: Int) {
        self.errors = errors
        self.matched = matched
    }
}
