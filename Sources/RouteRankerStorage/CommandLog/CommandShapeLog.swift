import Foundation
import Mongo

#if canImport(Glibc)
    import Glibc
#endif

/// A record of every command the storage's client sends, for checking queries against the shard
/// plan (`scripts/check-shard-plan`, `deploy/shard-plan.json`): each command started (the client's
/// command observer) appends one JSON line to a file. The tests' servers keep one (scripts/test
/// names the file in `ROUTERANKER_COMMAND_LOG`, which the composition root reads); a server in
/// service keeps none.
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
final class CommandShapeLog: Sendable {
    private let descriptor: Int32

    /// The log appending to the file at `path` (made if missing); nil when it cannot be opened.
    init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// The client's observer: each command's line appended to the log.
    var observer: MongoCommandObserver { { [self] in record($0) } }

    /// Appends the line of `command`.
    func record(_ command: MongoCommandStarted) {
        var line = Self.line(
            database: command.databaseName, name: command.commandName, command: RawBSON(command.commandBytes))
        line.append("\n")
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
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
