import Foundation
import Hummingbird
import RouteRankerModels

/// `?limit=` and `?cursor=` of a list. Cursors are opaque to clients: base64url of a small JSON
/// object that names the list (and sort) it belongs to, so a cursor from another list is `400`.
/// Each list declares the shape of its key (`CursorShape`), checked here when the cursor is read:
/// a forged key of any arity, type or value is `400` before any list code sees it.
struct PageRequest: Sendable {
    static let defaultLimit = 50
    static let maxLimit = 200

    var limit: Int
    /// The keyset position after which the page starts, as stored in the cursor: it fits the
    /// list's `CursorShape`, so that its components may be read at their declared types.
    var after: [String]?

    /// Reads `limit` and `cursor`; `list` names the list and sort the cursor must come from,
    /// `shape` what its key holds.
    init(_ request: Request, list: String, shape: CursorShape) throws {
        let query = request.query
        if let raw = query["limit"] {
            guard let value = Int(raw), (1...Self.maxLimit).contains(value) else {
                throw APIError.invalid("'limit' must be an integer from 1 to \(Self.maxLimit)", field: "limit")
            }
            limit = value
        } else {
            limit = Self.defaultLimit
        }
        if let raw = query["cursor"] {
            guard let cursor = Cursor(encoded: raw, list: list, shape: shape) else {
                throw APIError.invalid("'cursor' is not a cursor of this list", field: "cursor")
            }
            after = cursor.key
        } else {
            after = nil
        }
    }

    /// The page of `sorted` (already in list order) after the cursor; `key` gives an item's
    /// keyset position, which must increase strictly along `sorted`.
    func page<Item>(
        of sorted: [Item], list: String, key: (Item) -> [String],
        isAfter: ([String], [String]) -> Bool = CodePoint.precedes
    ) -> (items: [Item], next: String?) {
        let rest = after.map { position in sorted.filter { isAfter(position, key($0)) } } ?? sorted
        let items = Array(rest.prefix(limit))
        let next = rest.count > limit ? items.last.map { Cursor(list: list, key: key($0)).encoded } : nil
        return (items, next)
    }
}

/// Keyset orders of the newest-first lists, whose cursor keys are `[milliseconds, id]`.
enum NewestFirst {
    /// "Newest first, ties by the second key ascending": whether `key` comes after `position`.
    static func thenByKey(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == 2, key.count == 2, let p = Int64(position[0]), let k = Int64(key[0]) else {
            return false
        }
        return k < p || (k == p && CodePoint.precedes(position[1], key[1]))
    }

    /// "Newest first, ties newest id first", for ObjectId-keyed lists (groups, links), whose ids
    /// grow with creation: whether `key` comes after `position`.
    static func thenByNewestID(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == 2, key.count == 2, let p = Int64(position[0]), let k = Int64(key[0]) else {
            return false
        }
        return k < p || (k == p && CodePoint.precedes(key[1], position[1]))
    }
}
