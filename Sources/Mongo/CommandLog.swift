import CLibMongoC
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test-only record of every command the driver sends, for checking queries against a shard plan
/// (`scripts/check-shard-plan`, `deploy/shard-plan.json`): when the environment variable
/// `ROUTERANKER_COMMAND_LOG` names a file, each command started (libmongoc's command monitoring,
/// the same event `MongoCommandCounter` counts) appends one JSON line to it. Unset, the cost per
/// command is one check of a static.
///
/// A line holds the database, the command's name and target collection, and the *shape* of what it
/// selects, never a value: for a filter, each top-level field with how it is matched (`eq`, `in`,
/// `range`, or the operators, e.g. `$exists`); for `find`, `count`, `distinct` and `findAndModify`
/// its filter, for `update` and `delete` each distinct statement's (with `upsert`, `multi` or
/// `limit`), for `aggregate` its leading `$match` (or the name of its first stage) and the
/// collections its `$lookup` and `$unionWith` stages read, with their filters; for `insert` each
/// distinct set of top-level field names of its documents; for `createIndexes` each index's fields
/// and whether it is unique.
///
/// Lines are written with one `write` to a file opened with `O_APPEND`, so lines of concurrent
/// commands, and of several processes sharing the file, never interleave.
enum CommandLog {
    /// The log's file descriptor, opened once on first use; nil when the variable is unset or the
    /// file cannot be opened.
    private static let descriptor: Int32? = {
        guard let path = ProcessInfo.processInfo.environment["ROUTERANKER_COMMAND_LOG"], !path.isEmpty else {
            return nil
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        return fd >= 0 ? fd : nil
    }()

    /// Appends the line of a command-started event, if the log is on.
    static func record(_ event: OpaquePointer) {
        guard let fd = descriptor else { return }
        guard let command = mongoc_apm_command_started_get_command(event),
            let name = mongoc_apm_command_started_get_command_name(event),
            let database = mongoc_apm_command_started_get_database_name(event),
            let data = bson_get_data(command)
        else { return }
        let length = Int(Int32(littleEndian: UnsafeRawPointer(data).loadUnaligned(as: Int32.self)))
        var line = Self.line(
            database: String(cString: database), name: String(cString: name),
            command: RawBSON(UnsafeRawBufferPointer(start: data, count: length)))
        line.append("\n")
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Commands whose first field's value is the collection they act on.
    private static let collectionCommands: Set<String> = [
        "insert", "update", "delete", "find", "aggregate", "count", "distinct", "findAndModify", "killCursors",
        "createIndexes", "dropIndexes", "listIndexes", "drop", "create", "collMod",
    ]

    /// The JSON line (without its newline) of `command`, named `name`, sent to `database`.
    static func line(database: String, name: String, command: RawBSON) -> String {
        var json = JSONLine()
        json.field("db", string: database)
        json.field("cmd", string: name)
        let first = command.elements.first
        if name == "getMore" {
            json.field("coll", string: command["collection"]?.string)
        } else if collectionCommands.contains(name) {
            json.field("coll", string: first?.string)
        } else {
            json.field("coll", string: nil)
        }
        switch name {
        case "find":
            json.field("filter", raw: command["filter"]?.document.map(shape) ?? "{}")
        case "count", "distinct":
            json.field("filter", raw: command["query"]?.document.map(shape) ?? "{}")
        case "findAndModify":
            json.field("filter", raw: command["query"]?.document.map(shape) ?? "{}")
            json.field("upsert", raw: command["upsert"]?.bool == true ? "true" : "false")
        case "update":
            let statements = (command["updates"]?.document?.elements ?? []).compactMap(\.document).map { statement in
                "{\"filter\":\(statement["q"]?.document.map(shape) ?? "{}")"
                    + ",\"upsert\":\(statement["upsert"]?.bool == true),\"multi\":\(statement["multi"]?.bool == true)}"
            }
            json.field("updates", raw: list(statements))
        case "delete":
            let statements = (command["deletes"]?.document?.elements ?? []).compactMap(\.document).map { statement in
                "{\"filter\":\(statement["q"]?.document.map(shape) ?? "{}"),\"limit\":\(statement["limit"]?.int ?? 0)}"
            }
            json.field("deletes", raw: list(statements))
        case "insert":
            let shapes = (command["documents"]?.document?.elements ?? []).compactMap(\.document).map { document in
                "[" + document.elements.map { JSONLine.quoted($0.key) }.joined(separator: ",") + "]"
            }
            json.field("documents", raw: list(shapes))
        case "aggregate":
            let stages = (command["pipeline"]?.document?.elements ?? []).compactMap(\.document)
            if let stage = stages.first?.elements.first, stage.key == "$match", let match = stage.document {
                json.field("filter", raw: shape(match))
            } else {
                json.field("filter", raw: "null")
                json.field("first_stage", string: stages.first?.elements.first?.key)
            }
            var reads: [String] = []
            subreads(stages, into: &reads)
            json.field("reads", raw: list(reads))
        case "createIndexes":
            let indexes = (command["indexes"]?.document?.elements ?? []).compactMap(\.document).map { index in
                let keys = (index["key"]?.document?.elements ?? []).map { key in
                    "[\(JSONLine.quoted(key.key)),\(JSONLine.quoted(key.string ?? "\(key.int ?? 1)"))]"
                }
                return "{\"keys\":[\(keys.joined(separator: ","))],\"unique\":\(index["unique"]?.bool == true)}"
            }
            json.field("indexes", raw: list(indexes))
        default:
            break
        }
        return json.finished
    }

    /// The collections that `$lookup` and `$unionWith` stages of `stages` read (at any depth), each
    /// with the shape of what selects its documents: a `$lookup`'s `foreignField` (an equality per
    /// input document), or the leading `$match` of its or a `$unionWith`'s pipeline.
    private static func subreads(_ stages: [RawBSON], into reads: inout [String]) {
        for stage in stages {
            guard let element = stage.elements.first, element.key == "$lookup" || element.key == "$unionWith"
            else { continue }
            let kind = element.key
            // `{$unionWith: "name"}` is the whole collection.
            let body = element.document ?? RawBSON(UnsafeRawBufferPointer(start: nil, count: 0))
            let collection = element.string ?? (kind == "$lookup" ? body["from"]?.string : body["coll"]?.string)
            let pipeline = (body["pipeline"]?.document?.elements ?? []).compactMap(\.document)
            var filter = "null"
            if let foreign = body["foreignField"]?.string {
                filter = "{\(JSONLine.quoted(foreign)):\"eq\"}"
            } else if let first = pipeline.first?.elements.first, first.key == "$match", let match = first.document {
                filter = shape(match)
            }
            reads.append(
                "{\"stage\":\(JSONLine.quoted(kind)),\"coll\":\(JSONLine.quoted(collection)),\"filter\":\(filter)}")
            subreads(pipeline, into: &reads)
        }
    }

    /// `items` as a JSON array, each distinct one once, in order of first appearance.
    private static func list(_ items: [String]) -> String {
        var seen = Set<String>()
        return "[" + items.filter { seen.insert($0).inserted }.joined(separator: ",") + "]"
    }

    /// The shape of a filter as a JSON object: each top-level field and how it is matched. The
    /// parts of a top-level `$and` count as top-level; other logical operators (`$or`, `$nor`,
    /// `$expr`, …) appear as themselves, matched by `other`.
    static func shape(_ filter: RawBSON) -> String {
        var kinds: [(String, String)] = []
        func add(_ filter: RawBSON) {
            for element in filter.elements {
                if element.key == "$and" {
                    for part in element.document?.elements ?? [] { if let part = part.document { add(part) } }
                    continue
                }
                let kind = element.key.hasPrefix("$") ? "other" : match(element)
                if let index = kinds.firstIndex(where: { $0.0 == element.key }) {
                    // Two conditions on one field: an equality or `$in` decides where it is.
                    if kind == "eq" || kind == "in" { kinds[index].1 = kind }
                } else {
                    kinds.append((element.key, kind))
                }
            }
        }
        add(filter)
        return "{" + kinds.map { "\(JSONLine.quoted($0.0)):\(JSONLine.quoted($0.1))" }.joined(separator: ",") + "}"
    }

    /// How one field's condition matches: `eq` (a value, `$eq`), `in` (`$in`), `range` (`$gt`,
    /// `$gte`, `$lt`, `$lte` only) or its operators (e.g. `$exists`, `$geoWithin`).
    private static func match(_ element: RawBSON.Element) -> String {
        guard let condition = element.document, let first = condition.elements.first, first.key.hasPrefix("$") else {
            return "eq"
        }
        let operators = condition.elements.map(\.key)
        if operators == ["$eq"] { return "eq" }
        if operators == ["$in"] { return "in" }
        if operators.allSatisfy({ ["$gt", "$gte", "$lt", "$lte"].contains($0) }) { return "range" }
        return operators.sorted().joined(separator: ",")
    }
}

/// One JSON object being written, field by field.
private struct JSONLine {
    private var text = "{"

    mutating func field(_ name: String, string value: String?) {
        field(name, raw: Self.quoted(value))
    }

    mutating func field(_ name: String, raw value: String) {
        if text.count > 1 { text.append(",") }
        text.append(Self.quoted(name))
        text.append(":")
        text.append(value)
    }

    var finished: String { text + "}" }

    /// `value` as a JSON string, or `null`.
    static func quoted(_ value: String?) -> String {
        guard let value else { return "null" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20: out.append(String(format: "\\u%04x", scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A read-only view of BSON bytes that reads keys and small values and skips everything else by its
/// length, so that a command carrying 1000-point buckets costs no decoding of their arrays. Bytes it
/// cannot make sense of end the document early, never read past the buffer.
struct RawBSON {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    struct Element {
        let key: String
        let type: UInt8
        let value: UnsafeRawBufferPointer

        /// A string's value.
        var string: String? {
            guard type == 2, value.count >= 5 else { return nil }
            return String(decoding: value[4..<(value.count - 1)], as: UTF8.self)
        }

        /// An embedded document's or array's bytes.
        var document: RawBSON? {
            guard type == 3 || type == 4 else { return nil }
            return RawBSON(value)
        }

        var bool: Bool? { type == 8 && value.count == 1 ? value[0] != 0 : nil }

        /// An int32's, int64's or double's value.
        var int: Int? {
            switch type {
            case 16 where value.count == 4: Int(Int32(littleEndian: value.loadUnaligned(as: Int32.self)))
            case 18 where value.count == 8: Int(Int64(littleEndian: value.loadUnaligned(as: Int64.self)))
            case 1 where value.count == 8:
                Int(exactly: Double(bitPattern: UInt64(littleEndian: value.loadUnaligned(as: UInt64.self))))
            default: nil
            }
        }
    }

    subscript(key: String) -> Element? { elements.first { $0.key == key } }

    /// The document's elements in order.
    var elements: [Element] {
        var found: [Element] = []
        guard bytes.count >= 5 else { return found }
        let end = min(bytes.count, Int(Int32(littleEndian: bytes.loadUnaligned(as: Int32.self)))) - 1
        var offset = 4
        while offset < end {
            let type = bytes[offset]
            offset += 1
            guard let nul = bytes[offset..<end].firstIndex(of: 0) else { break }
            let key = String(decoding: bytes[offset..<nul], as: UTF8.self)
            offset = nul + 1
            guard let size = Self.size(type: type, at: offset, in: bytes, end: end), offset + size <= end else { break }
            found.append(
                Element(key: key, type: type, value: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])))
            offset += size
        }
        return found
    }

    /// The length of a value of `type` starting at `offset`, or nil if it cannot be told.
    private static func size(type: UInt8, at offset: Int, in bytes: UnsafeRawBufferPointer, end: Int) -> Int? {
        func int32() -> Int? {
            guard offset + 4 <= end else { return nil }
            return Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
        }
        func cstrings(_ count: Int) -> Int? {
            var position = offset
            for _ in 0..<count {
                guard let nul = bytes[position..<end].firstIndex(of: 0) else { return nil }
                position = nul + 1
            }
            return position - offset
        }
        switch type {
        case 1, 9, 17, 18: return 8  // double, date, timestamp, int64
        case 2, 13, 14: return int32().flatMap { $0 >= 1 ? $0 + 4 : nil }  // string, code, symbol
        case 3, 4, 15: return int32().flatMap { $0 >= 5 ? $0 : nil }  // document, array, code with scope
        case 5: return int32().flatMap { $0 >= 0 ? $0 + 5 : nil }  // binary: length, subtype, bytes
        case 6, 10, 127, 255: return 0  // undefined, null, max key, min key
        case 7: return 12  // ObjectId
        case 8: return 1  // bool
        case 11: return cstrings(2)  // regex: pattern, options
        case 12: return int32().flatMap { $0 >= 1 ? $0 + 4 + 12 : nil }  // DBPointer
        case 16: return 4  // int32
        case 19: return 16  // decimal128
        default: return nil
        }
    }
}
