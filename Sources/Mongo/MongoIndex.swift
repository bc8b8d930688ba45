/// An index to create with `MongoCollection.createIndexes(_:)`.
public struct MongoIndex: Sendable, Equatable {
    /// The key specification, in order: `["owner": 1, "started_at": -1]`, `["start": "2dsphere"]`.
    public var keys: BSONDocument
    /// The index name; the server derives one from the keys when nil (`owner_1_started_at_-1`).
    public var name: String?
    /// Refuse two documents with the same key (writes fail with `MongoError.duplicateKey`).
    public var unique: Bool
    /// Index only documents that have the indexed fields.
    public var sparse: Bool
    /// Index only documents matching this filter (e.g. `["deleted": false]`).
    public var partialFilter: BSONDocument?
    /// Delete documents this many seconds after the date in the (single) indexed field.
    public var expireAfterSeconds: Int?

    public init(
        keys: BSONDocument,
        name: String? = nil,
        unique: Bool = false,
        sparse: Bool = false,
        partialFilter: BSONDocument? = nil,
        expireAfterSeconds: Int? = nil
    ) {
        self.keys = keys
        self.name = name
        self.unique = unique
        self.sparse = sparse
        self.partialFilter = partialFilter
        self.expireAfterSeconds = expireAfterSeconds
    }

    /// The entry for the `createIndexes` command's `indexes` array.
    var specification: BSONDocument {
        var spec: BSONDocument = ["key": .document(keys), "name": .string(name ?? defaultName)]
        if unique { spec["unique"] = true }
        if sparse { spec["sparse"] = true }
        if let partialFilter { spec["partialFilterExpression"] = .document(partialFilter) }
        if let expireAfterSeconds { spec["expireAfterSeconds"] = .int(expireAfterSeconds) }
        // MongoDB fills in the 2dsphere version when it is missing, and so does SecantusDB, but
        // SecantusDB then reports "same name, different options" (code 86) when the same index is
        // requested again at the next start-up. Stating the default (3, MongoDB 3.2+) avoids that.
        if keys.values.contains(.string("2dsphere")) { spec["2dsphereIndexVersion"] = .int32(3) }
        return spec
    }

    /// The server's naming convention, `field_direction` joined by `_`: the command requires a name.
    private var defaultName: String {
        keys.map { key, value in
            let direction: String =
                switch value {
                case .string(let s): s
                case .int32(let v): String(v)
                case .int64(let v): String(v)
                case .double(let v): v == v.rounded() ? String(Int(v)) : String(v)
                default: "1"
                }
            return "\(key)_\(direction)"
        }.joined(separator: "_")
    }
}
