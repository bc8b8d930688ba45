import Foundation

/// An ordered BSON document: keys keep their insertion order, as MongoDB requires for sort and index
/// specifications, and equality is order-sensitive, as it is in the server.
///
/// Lookups scan the keys; documents in this app have a few dozen keys at most, where a scan beats
/// hashing. The large parts of a document (point arrays) are values, not keys.
public struct BSONDocument: Sendable, Equatable {
    /// Keys and values as parallel arrays: cheaper to build and compare than an array of tuples.
    public private(set) var keys: [String]
    public private(set) var values: [BSONValue]

    /// An empty document.
    public init() {
        keys = []
        values = []
    }

    /// A document with these fields in this order. A repeated key keeps its last value, in the position
    /// of its first occurrence.
    public init(_ elements: some Sequence<(String, BSONValue)>) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    /// The number of fields.
    public var count: Int { keys.count }

    /// True when the document has no fields.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value for `key`; setting `nil` removes the field, setting a new key appends it.
    public subscript(key: String) -> BSONValue? {
        get {
            guard let i = keys.firstIndex(of: key) else { return nil }
            return values[i]
        }
        set {
            if let i = keys.firstIndex(of: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Appends a field without checking for an existing one: the fast path for building documents whose
    /// keys are known to be distinct. A duplicate key produces BSON the server may reject.
    public mutating func append(_ key: String, _ value: BSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// Reserves room for `count` fields.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// True if the document has a field named `key` (even one holding null).
    public func contains(_ key: String) -> Bool { keys.contains(key) }
}

extension BSONDocument: ExpressibleByDictionaryLiteral {
    /// A literal's fields, in order (see `init(distinctKeys:)`).
    public init(dictionaryLiteral elements: (String, BSONValue)...) {
        self.init(distinctKeys: elements)
    }

    /// Fields whose keys the caller knows to be distinct, such as a literal's (written in the
    /// source), appended as they come. `init(_:)` looks each key up among those before it, which for
    /// the dozens of literal documents a request builds was 3 % of a live append's CPU; here a
    /// repeated key is caught by an assertion, in debug builds (the tests), instead.
    public init(distinctKeys elements: [(String, BSONValue)]) {
        self.init()
        reserveCapacity(elements.count)
        for (key, value) in elements {
            assert(!keys.contains(key), "the key \(key) is repeated")
            append(key, value)
        }
    }
}

extension BSONDocument: Sequence {
    public typealias Element = (key: String, value: BSONValue)

    public struct Iterator: IteratorProtocol {
        fileprivate let document: BSONDocument
        fileprivate var index = 0

        public mutating func next() -> Element? {
            guard index < document.keys.count else { return nil }
            defer { index += 1 }
            return (document.keys[index], document.values[index])
        }
    }

    public func makeIterator() -> Iterator { Iterator(document: self) }

    public var underestimatedCount: Int { keys.count }
}

// MARK: - Typed getters: nil when the field is missing or of another type

extension BSONDocument {
    /// The string at `key`.
    public func string(_ key: String) -> String? { self[key]?.stringValue }

    /// The integer at `key`: an int32, an int64, or a double holding an integer that fits in `Int`.
    public func int(_ key: String) -> Int? { self[key]?.intValue }

    /// The number at `key`, of any numeric type.
    public func double(_ key: String) -> Double? { self[key]?.doubleValue }

    /// The boolean at `key`.
    public func bool(_ key: String) -> Bool? { self[key]?.boolValue }

    /// The datetime at `key`.
    public func date(_ key: String) -> Date? { self[key]?.dateValue }

    /// The nested document at `key`.
    public func document(_ key: String) -> BSONDocument? { self[key]?.documentValue }

    /// The array at `key`.
    public func array(_ key: String) -> [BSONValue]? { self[key]?.arrayValue }

    /// The ObjectId at `key`.
    public func objectId(_ key: String) -> BSONObjectID? { self[key]?.objectIdValue }

    /// The bytes of the binary value at `key`.
    public func binary(_ key: String) -> [UInt8]? { self[key]?.binaryValue }
}

extension BSONDocument: CustomStringConvertible {
    /// A relaxed, human-readable rendering for logs and test failures; not Extended JSON, not for clients.
    public var description: String {
        "{" + zip(keys, values).map { "\"\($0)\": \(BSONDocument.render($1))" }.joined(separator: ", ") + "}"
    }

    private static func render(_ value: BSONValue) -> String {
        switch value {
        case .double(let v): "\(v)"
        case .string(let s): "\"\(s)\""
        case .document(let d): d.description
        case .array(let a): "[" + a.map(render).joined(separator: ", ") + "]"
        case .binary(let subtype, let bytes): "Binary(\(subtype), \(bytes.count) bytes)"
        case .objectId(let o): "ObjectId(\(o.hex))"
        case .bool(let b): "\(b)"
        case .date(let d): "Date(\(BSONDate.milliseconds(d)))"
        case .null: "null"
        case .int32(let v): "Int32(\(v))"
        case .int64(let v): "Int64(\(v))"
        case .raw(let type, let bytes): "Raw(0x\(String(type, radix: 16)), \(bytes.count) bytes)"
        }
    }
}
