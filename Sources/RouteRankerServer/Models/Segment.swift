import Foundation
import RouteRankerCore

/// A segment as stored in `segments`: a named path with a direction. Immutable once created.
struct SegmentRecord: Sendable, Equatable {
    var id: String
    var owner: String
    var name: String
    /// The points, in the segment's direction (2–10,000).
    var points: [Coordinate]
    /// The geodesic length through `points`, metres.
    var lengthM: Double
    var createdAt: Date

    var start: Coordinate { points[0] }
    var end: Coordinate { points[points.count - 1] }

    /// `[min_lon, min_lat, max_lon, max_lat]` of the points (as a route's `stats.bbox`).
    var bbox: [Double] {
        let lats = points.map(\.lat)
        let lons = points.map(\.lon)
        return [lons.min() ?? 0, lats.min() ?? 0, lons.max() ?? 0, lats.max() ?? 0]
    }

    /// What the matcher compares routes with.
    var path: SegmentPath { SegmentPath(points: points) }
}

/// Rules for segments a client creates (API.md "Segments and leaderboards").
enum SegmentRules {
    static let minPoints = 2
    static let maxPoints = 10_000
    static let minLengthM = 100.0
    static let maxLengthM = 100_000.0
    /// `?radius_m=` of the near search: default and most.
    static let defaultNearRadiusM = 1000.0
    static let maxNearRadiusM = 50_000.0
}

/// `GET /v1/segments/{id}`, and each item of the lists (`distance_from_m` with `near` only).
struct SegmentView: APIResponse {
    var id: String
    var name: String
    var owner: String
    var lengthM: Double
    var start: Coordinate
    var end: Coordinate
    var bbox: [Double]
    var points: [Coordinate]
    var createdAt: Date
    var distanceFromM: Double?

    init(_ segment: SegmentRecord, distanceFromM: Double? = nil) {
        id = segment.id
        name = segment.name
        owner = segment.owner
        lengthM = segment.lengthM
        start = segment.start
        end = segment.end
        bbox = segment.bbox
        points = segment.points
        createdAt = segment.createdAt
        self.distanceFromM = distanceFromM
    }
}

/// `POST /v1/segments` body: `name` and either `route`, `from`, `to` or `points`.
struct SegmentCreateRequest: Decodable {
    var name: String?
    var route: String?
    var from: Int?
    var to: Int?
    var points: [Coordinate]?
}

/// One stored effort: a pass of a finished route along a segment (`SegmentEffort` with where it
/// belongs). `start`/`end` are the positions of its start and end points, for the privacy rule.
struct EffortRecord: Sendable, Equatable {
    var segment: String
    var route: String
    /// The route's owner (routes never change owner), so reads need no route lookup to group by person.
    var owner: String
    var startIndex: Int
    var endIndex: Int
    var elapsedS: Double
    /// `t(s)`, Unix seconds.
    var startT: Double
    var start: Coordinate
    var end: Coordinate

    /// The stored id: one effort per segment, route and start index, so storing twice is harmless.
    var id: String { "\(segment):\(route):\(startIndex)" }
}

/// One item of `GET /v1/segments/{id}/leaderboard`.
struct LeaderboardItem: Encodable, Sendable {
    var rank: Int
    var user: FriendView
    var route: String
    var elapsedS: Double
    var avgSpeedMps: Double
    var startedAt: Date
    var attempts: Int
}

/// One item of `GET /v1/segments/{id}/efforts`.
struct EffortView: Encodable, Sendable {
    var route: String
    var elapsedS: Double
    var avgSpeedMps: Double
    var startedAt: Date
    var startIndex: Int
    var endIndex: Int
    var rank: Int
}
