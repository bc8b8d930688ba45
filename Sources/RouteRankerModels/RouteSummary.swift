import Foundation
import RouteRankerCore

/// A route as clients see it: `GET /v1/routes/{id}`, lists, and the answer to a create.
package struct RouteSummary: Encodable {
    package var id: String
    package var owner: String
    package var name: String
    package var activity: Activity
    package var state: RouteState
    package var createdAt: Date
    package var startedAt: Date?
    package var endedAt: Date?
    package var stats: RouteStats
    /// The route's own read has them; lists leave them out (nil: not written), see
    /// `RouteRecord.annotationsLoaded`.
    package var annotations: [Annotation]?
    /// Shown to the owner only.
    package var sharedWith: [String]?
    /// In `near` searches: geodesic metres from the search centre to the start.
    package var distanceFromM: Double?

    package init(_ route: RouteRecord, sharedWith: [String]?, distanceFromM: Double? = nil) {
        id = route.id
        owner = route.owner
        name = route.name
        activity = route.activity
        state = route.state
        createdAt = route.createdAt
        startedAt = route.startedAt
        endedAt = route.endedAt
        stats = route.stats
        annotations = route.annotationsLoaded ? route.annotations : nil
        self.sharedWith = sharedWith
        self.distanceFromM = distanceFromM
    }

    private enum CodingKeys: String, CodingKey {
        case id, owner, name, activity, state, stats, annotations
        case createdAt = "created_at", startedAt = "started_at", endedAt = "ended_at"
        case sharedWith = "shared_with", distanceFromM = "distance_from_m"
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(owner, forKey: .owner)
        try c.encode(name, forKey: .name)
        try c.encode(activity, forKey: .activity)
        try c.encode(state, forKey: .state)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(startedAt, forKey: .startedAt)  // explicit null before the first point
        try c.encode(endedAt, forKey: .endedAt)
        try c.encode(stats, forKey: .stats)
        try c.encodeIfPresent(annotations, forKey: .annotations)
        try c.encodeIfPresent(sharedWith, forKey: .sharedWith)
        try c.encodeIfPresent(distanceFromM, forKey: .distanceFromM)
    }
}

/// The answer to an append: `{"accepted","duplicates","dropped","stats"}`.
package struct AppendResult: Encodable {
    package var accepted: Int
    package var duplicates: Int
    package var dropped: Int
    package var stats: RouteStats

    package init(accepted: Int, duplicates: Int, dropped: Int, stats: RouteStats) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.dropped = dropped
        self.stats = stats
    }
}

/// Rules for the route fields a client sets.
package enum RouteRules {
    /// A name sent by the client (route, group, segment, device; users' too): 1–200 characters,
    /// not blank, none that `TextRules` forbids; `"Untitled"` when absent. Names read from a
    /// file are `TextRules.cleaned` first instead.
    package static func name(_ name: String?) throws -> String {
        guard let name else { return "Untitled" }
        guard (1...200).contains(name.count), !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw InvalidInput("'name' must be 1–200 characters and not blank", field: "name")
        }
        if let problem = TextRules.problem(in: name, field: "name") { throw InvalidInput(problem, field: "name") }
        return name
    }

    /// The most annotations a route holds (API.md, "Limits and hostile input").
    package static let maxAnnotations = 1000

    /// Refuses (`413`, `AnnotationLimitExceeded`) a request that would take a route holding
    /// `existing` annotations past ``maxAnnotations`` by `adding` more; checked before anything is
    /// stored.
    package static func annotations(existing: Int, adding: Int) throws {
        guard adding > 0 else { return }
        guard existing + adding <= maxAnnotations else { throw AnnotationLimitExceeded(limit: maxAnnotations) }
    }

    package static func activity(_ raw: String?) throws -> Activity {
        guard let raw else { return .other }
        guard let activity = Activity(rawValue: raw) else {
            throw InvalidInput(
                "'activity' must be one of walk, run, ride, drive, other (lower case)", field: "activity")
        }
        return activity
    }

    package static func recording(_ raw: String?) throws -> Bool? {
        try flag(raw, field: "recording")
    }

    /// A yes/no query parameter: `true`/`1` or `false`/`0`; `nil` when absent.
    package static func flag(_ raw: String?, field: String) throws -> Bool? {
        switch raw {
        case nil: nil
        case "true", "1": true
        case "false", "0": false
        default: throw InvalidInput("'\(field)' must be true or false", field: field)
        }
    }
}
