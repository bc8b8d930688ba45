extension CursorField {
    /// Any finite number.
    package static let finite = CursorField.number(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    /// A finite number ≥ 0 (a distance, a duration).
    package static let nonNegative = CursorField.number(0...Double.greatestFiniteMagnitude)
}

/// The cursor keys of the lists, each declared once: what `PageRequest` lets through (and what the
/// `cursor` fuzz target checks: every key a shape accepts reads at its declared types).
extension CursorShape {
    /// `[milliseconds, id]`: the lists by creation or sharing date (imports, devices, segments,
    /// groups, links, a route's shares, the inbox), ties by id.
    package static let dateThenID = CursorShape(.milliseconds, .id)
    /// `[distance_m, id]`: the `near` searches, nearest first.
    package static let distanceThenID = CursorShape(.nonNegative, .id)
    /// `[name, id]`: friends by name.
    package static let nameThenID = CursorShape(.text, .id)
    /// `[index]`: an import's files in archive order.
    package static let fileIndex = CursorShape(.integer(0...Int64(Int32.max)))
    /// `[elapsed ms, start ms, route id]`: a records ranking.
    package static let recordRanking = CursorShape(.integer(0...Int64.max), .milliseconds, .id)
    /// `[elapsed_s, t, owner id]`: a segment's leaderboard.
    package static let leaderboard = CursorShape(.nonNegative, .finite, .id)
    /// `[elapsed_s, t, route id, start index]`: a person's efforts on a segment.
    package static let efforts = CursorShape(.nonNegative, .finite, .id, .integer(0...Int64.max))

    /// `GET /v1/routes?sort=` by the stored `field`: `["v", value, id]`, the value a date in
    /// milliseconds (`started_at`), a name (`name`) or a finite number (the stats); or `["n", id]`
    /// for the routes without a value.
    package static func routes(sortedBy field: String) -> CursorShape {
        let value: CursorField =
            switch field {
            case "started_at": .milliseconds
            case "name": .text
            default: .finite
            }
        return CursorShape(alternatives: [[.literal("v"), value, .id], [.literal("n"), .id]])
    }

    /// Every list's shape (the route sorts by their stored fields), for checks over all of them.
    package static let allLists: [CursorShape] =
        [dateThenID, distanceThenID, nameThenID, fileIndex, recordRanking, leaderboard, efforts]
        + ["started_at", "name", "metrics.distance_m", "metrics.duration_s", "metrics.avg_pace_s_per_km"].map {
            routes(sortedBy: $0)
        }
}
