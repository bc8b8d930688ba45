import Foundation

/// What Strava's `activities.csv` says about the route files of its bulk export: API.md's
/// "Moving in" names and activities.
///
/// Columns are found by their header names (the first of a repeated name, see
/// ``CSVTable/column(named:)``): `Filename`, `Activity Name` and `Activity Type`. A row is about
/// the archive entry its `Filename` names (`activities/1234567890.gpx.gz`: Strava writes paths
/// from the archive's root); rows with an empty `Filename`, or none, are ignored, and when two
/// rows name the same file the first one counts.
public struct StravaActivities: Sendable, Hashable {
    /// What one row says about its file.
    public struct Entry: Sendable, Hashable {
        /// The route name: the row's `Activity Name`, cut to ``maxNameLength`` characters;
        /// `nil` when it is empty or blank (or the column is missing), and the file's own
        /// naming applies.
        public var name: String?
        /// The activity its `Activity Type` maps to (``activity(stravaType:)``); `nil` only when
        /// the table has no such column (or the row is too short to reach it), and the file's
        /// own activity applies. An empty type is `other`.
        public var activity: Activity?

        /// An entry with both values given.
        public init(name: String?, activity: Activity?) {
            self.name = name
            self.activity = activity
        }
    }

    /// The longest route name the API takes (`RouteRules.name`: 1–200 characters).
    public static let maxNameLength = 200

    /// The rows by their `Filename`, as ``normalizedPath(_:)`` gives it.
    public let entries: [String: Entry]

    /// The rows of `table`; a table without a `Filename` column has no entries.
    public init(_ table: CSVTable) {
        var entries: [String: Entry] = [:]
        if let file = table.column(named: "Filename") {
            let name = table.column(named: "Activity Name")
            let type = table.column(named: "Activity Type")
            for row in table.rows.indices {
                guard let path = table.field(row: row, column: file), !path.isEmpty else { continue }
                let key = Self.normalizedPath(path)
                guard entries[key] == nil else { continue }
                entries[key] = Entry(
                    name: name.flatMap { table.field(row: row, column: $0) }.flatMap(Self.routeName),
                    activity: type.flatMap { table.field(row: row, column: $0) }.map(Self.activity(stravaType:)))
            }
        }
        self.entries = entries
    }

    /// Reads `data` as a CSV table (``CSVTable``'s rules and errors) and takes its rows.
    public init(parsing data: some Collection<UInt8>, maxBytes: Int = CSVTable.defaultMaxBytes) throws {
        self.init(try CSVTable(parsing: data, maxBytes: maxBytes))
    }

    /// The row about archive entry `path`, if any. Paths are compared exactly (case counts),
    /// after ``normalizedPath(_:)`` on both sides.
    public func entry(forPath path: String) -> Entry? {
        entries[Self.normalizedPath(path)]
    }

    /// `path` without any leading `./` (`./activities/1.gpx` is `activities/1.gpx`); nothing
    /// else changes.
    public static func normalizedPath(_ path: String) -> String {
        var rest = path.utf8[...]
        while rest.starts(with: "./".utf8) { rest = rest.dropFirst(2) }
        return String(decoding: rest, as: UTF8.self)
    }

    /// API.md's mapping of Strava's `Activity Type` (exact, case counts): `Run`, `Trail Run`,
    /// `Virtual Run` → run; `Ride`, `Virtual Ride`, `E-Bike Ride`, `Mountain Bike Ride`,
    /// `Gravel Ride` → ride; `Walk`, `Hike` → walk; anything else → other.
    public static func activity(stravaType: String) -> Activity {
        switch stravaType {
        case "Run", "Trail Run", "Virtual Run": .run
        case "Ride", "Virtual Ride", "E-Bike Ride", "Mountain Bike Ride", "Gravel Ride": .ride
        case "Walk", "Hike": .walk
        default: .other
        }
    }

    /// `raw` as a route name the API takes: `nil` when it is empty or only white space (as
    /// `RouteRules.name` sees it), else
    /// its first ``maxNameLength`` characters (grapheme clusters, as the API counts them),
    /// otherwise as written (not trimmed).
    public static func routeName(_ raw: String) -> String? {
        let name = raw.count > maxNameLength ? String(raw.prefix(maxNameLength)) : raw
        return name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : name
    }
}
