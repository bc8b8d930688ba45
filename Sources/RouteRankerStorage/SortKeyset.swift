import Foundation
import Mongo
import RouteRankerModels

/// Keyset pagination over one sort field where some routes have no value: the routes with a value
/// come first, in the requested direction, ties by id; then the routes without one, by id. A cursor
/// holds `["v", value, id]` or `["n", id]` for the last item of its page.
package struct SortKeyset {
    package let field: String
    package let descending: Bool
    /// The position of the previous page's last item, if any.
    package let after: [String]?

    package init(field: String, descending: Bool, after: [String]?) throws {
        self.field = field
        self.descending = descending
        self.after = after
        // The controller checked the same shape when it read the cursor; checked again here, where
        // the components are used (indexed, converted to a date or a number), for any other caller.
        if let after, !Self.cursorShape(field: field).accepts(after) { throw InvalidListPosition() }
    }

    /// What a cursor of a list sorted by the stored `field` holds (`CursorShape.routes(sortedBy:)`).
    package static func cursorShape(field: String) -> CursorShape { .routes(sortedBy: field) }

    /// Routes with a value, after the cursor. Past the valued phase, none.
    package func valuedFilter(_ base: BSONDocument) throws -> BSONDocument {
        var filter = base
        switch after {
        case nil:
            filter[field] = ["$ne": .null]
        case let position? where position[0] == "v":
            let value = try Self.value(position[1], field: field)
            filter["$or"] = [
                [field: [descending ? "$lt" : "$gt": value]],
                [field: value, "_id": ["$gt": .string(position[2])]],
            ]
        default:
            filter["_id"] = ["$exists": false]  // the cursor is already in the null phase
        }
        return filter
    }

    /// Routes without a value, after the cursor.
    package func nullFilter(_ base: BSONDocument) -> BSONDocument {
        var filter = base
        filter[field] = .null
        if let position = after, position[0] == "n" { filter["_id"] = ["$gt": .string(position[1])] }
        return filter
    }

    /// The cursor position of `route` for sort key `key`.
    package static func key(of route: RouteRecord, field key: String) -> [String] {
        let stats = route.stats
        let value: String? =
            switch key {
            case "started_at": route.startedAt.map(\.millisecondsKey)
            case "name": route.name
            case "distance_m": String(stats.distanceM)
            case "duration_s": String(stats.durationS)
            default: stats.avgPaceSPerKm.map { String($0) }
            }
        return value.map { ["v", $0, route.id] } ?? ["n", route.id]
    }

    private static func value(_ raw: String, field: String) throws -> BSONValue {
        switch field {
        case "name": return .string(raw)
        case "started_at":
            guard let ms = Int64(raw), Cursor.millisecondRange.contains(ms) else { break }
            return .date(Date(timeIntervalSince1970: Double(ms) / 1000))
        default:
            guard let number = Double(raw), number.isFinite else { break }
            return .double(number)
        }
        throw InvalidListPosition()
    }
}
