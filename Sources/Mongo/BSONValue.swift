import Foundation

/// One BSON value: the types this wrapper's callers store, plus `.raw` for everything else the server may send.
public enum BSONValue: Sendable, Equatable {
    case double(Double)
    case string(String)
    case document(BSONDocument)
    case array([BSONValue])
    /// Binary data with its BSON subtype (0 is generic binary, 4 a UUID).
    case binary(subtype: UInt8, [UInt8])
    case objectId(BSONObjectID)
    case bool(Bool)
    /// A UTC datetime. BSON keeps milliseconds since the epoch, so finer fractions are rounded away.
    case date(Date)
    case null
    case int32(Int32)
    case int64(Int64)
    /// A BSON type this wrapper does not model (decimal128, timestamp, regex, min/max key, …), kept as
    /// its type byte and payload bytes so a document read from the server writes back unchanged.
    case raw(type: UInt8, bytes: [UInt8])

    /// An integer stored as BSON int64: the width Swift's `Int` has on every platform we run on.
    public static func int(_ value: Int) -> BSONValue { .int64(Int64(value)) }
}

// MARK: - Typed access

extension BSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { s } else { nil }
    }

    /// The value as `Int` if it is an int32, an int64, or a double holding an integer that fits.
    public var intValue: Int? {
        switch self {
        case .int32(let v): Int(v)
        case .int64(let v): Int(exactly: v)
        case .double(let v): Int(exactly: v)
        default: nil
        }
    }

    /// The value as `Double` if it is any numeric type (large int64s round to the nearest double).
    public var doubleValue: Double? {
        switch self {
        case .double(let v): v
        case .int32(let v): Double(v)
        case .int64(let v): Double(v)
        default: nil
        }
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }

    /// The date, if this is a datetime.
    public var dateValue: Date? {
        if case .date(let d) = self { d } else { nil }
    }

    /// The nested document, if this is a document.
    public var documentValue: BSONDocument? {
        if case .document(let d) = self { d } else { nil }
    }

    /// The elements, if this is an array.
    public var arrayValue: [BSONValue]? {
        if case .array(let a) = self { a } else { nil }
    }

    /// The ObjectId, if this is an ObjectId.
    public var objectIdValue: BSONObjectID? {
        if case .objectId(let o) = self { o } else { nil }
    }

    /// The bytes, if this is binary data of any subtype.
    public var binaryValue: [UInt8]? {
        if case .binary(_, let bytes) = self { bytes } else { nil }
    }

    /// True for BSON null.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }
}

// MARK: - Literals, so filters read like `["owner": "ann", "n": ["$gte": 3]]`

extension BSONValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension BSONValue: ExpressibleByIntegerLiteral {
    /// Integer literals become int64, like `BSONValue.int(_:)`; write `.int32(…)` for the narrow type.
    public init(integerLiteral value: Int64) { self = .int64(value) }
}

extension BSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension BSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension BSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: BSONValue...) { self = .array(elements) }
}

extension BSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, BSONValue)...) {
        self = .document(BSONDocument(distinctKeys: elements))
    }
}
