import Foundation
import RouteRankerCore

/// A segment as stored in `segments`: a named path with a direction. Immutable once created.
package struct SegmentRecord: Sendable, Equatable {
    package var id: String
    package var owner: String
    package var name: String
    /// The points, in the segment's direction (2–10,000).
    package var points: [Coordinate]
    /// The geodesic length through `points`, metres.
    package var lengthM: Double
    package var createdAt: Date

    package init(id: String, owner: String, name: String, points: [Coordinate], lengthM: Double, createdAt: Date) {
        self.id = id
        self.owner = owner
        self.name = name
        self.points = points
        self.lengthM = lengthM
        self.createdAt = createdAt
    }

    package var start: Coordinate { points[0] }
    package var end: Coordinate { points[points.count - 1] }

    /// `[min_lon, min_lat, max_lon, max_lat]` of the points (as a route's `stats.bbox`).
    package var bbox: [Double] {
        let lats = points.map(\.lat)
        let lons = points.map(\.lon)
        return [lons.min() ?? 0, lats.min() ?? 0, lons.max() ?? 0, lats.max() ?? 0]
    }

    /// What the matcher compares routes with.
    package var path: SegmentPath { SegmentPath(points: points) }
}

/// Rules for segments a client creates (API.md "Segments and leaderboards").
package enum SegmentRules {
    package static let minPoints = 2
    package static let maxPoints = 10_000
    package static let minLengthM = 100.0
    package static let maxLengthM = 100_000.0
    /// `?radius_m=` of the near search: default and most.
    package static let defaultNearRadiusM = 1000.0
    package static let maxNearRadiusM = 50_000.0
}

/// `GET /v1/segments/{id}`, and each item of the lists (`distance_from_m` with `near` only).
package struct SegmentView: Encodable {
    package var id: String
    package var name: String
    package var owner: String
    package var lengthM: Double
    package var start: Coordinate
    package var end: Coordinate
    package var bbox: [Double]
    package var points: [Coordinate]
    package var createdAt: Date
    package var distanceFromM: Double?

    package init(_ segment: SegmentRecord, distanceFromM: Double? = nil) {
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
package struct SegmentCreateRequest: Decodable {
    package var name: String?
    package var route: String?
    package var from: Int?
    package var to: Int?
    package var points: [Coordinate]?

    package init(
        name: String? = nil, route: String? = nil, from: Int? = nil, to: Int? = nil, points: [Coordinate]? = nil
    ) {
        self.name = name
        self.route = route
        self.from = from
        self.to = to
        self.points = points
    }
}

/// One stored effort: a pass of a finished route along a segment (`SegmentEffort` with where it
/// belongs). `start`/`end` are the positions of its start and end points, for the privacy rule.
package struct EffortRecord: Sendable, Equatable {
    package var segment: String
    package var route: String
    /// The route's owner (routes never change owner), so reads need no route lookup to group by person.
    package var owner: String
    package var startIndex: Int
    package var endIndex: Int
    package var elapsedS: Double
    /// `t(s)`, Unix seconds.
    package var startT: Double
    package var start: Coordinate
    package var end: Coordinate

    package init(
        segment: String, route: String, owner: String, startIndex: Int, endIndex: Int, elapsedS: Double, startT: Double,
        start: Coordinate, end: Coordinate
    ) {
        self.segment = segment
        self.route = route
        self.owner = owner
        self.startIndex = startIndex
        self.endIndex = endIndex
        self.elapsedS = elapsedS
        self.startT = startT
        self.start = start
        self.end = end
    }

    /// The stored id: one effort per segment, route and start index, so storing twice is harmless.
    package var id: String { "\(segment):\(route):\(startIndex)" }
}

/// One item of `GET /v1/segments/{id}/leaderboard`.
package struct LeaderboardItem: Encodable, Sendable {
    package var rank: Int
    package var user: FriendView
    package var route: String
    package var elapsedS: Double
    package var avgSpeedMps: Double
    package var startedAt: Date
    package var attempts: Int

    package init(
        rank: Int, user: FriendView, route: String, elapsedS: Double, avgSpeedMps: Double, startedAt: Date,
        attempts: Int
    ) {
        self.rank = rank
        self.user = user
        self.route = route
        self.elapsedS = elapsedS
        self.avgSpeedMps = avgSpeedMps
        self.startedAt = startedAt
        self.attempts = attempts
    }
}

/// One item of `GET /v1/segments/{id}/efforts`.
package struct EffortView: Encodable, Sendable {
    package var route: String
    package var elapsedS: Double
    package var avgSpeedMps: Double
    package var startedAt: Date
    package var startIndex: Int
    package var endIndex: Int
    package var rank: Int

    package init(
        route: String, elapsedS: Double, avgSpeedMps: Double, startedAt: Date, startIndex: Int, endIndex: Int, rank: Int
    ) {
        self.route = route
        self.elapsedS = elapsedS
        self.avgSpeedMps = avgSpeedMps
        self.startedAt = startedAt
        self.startIndex = startIndex
        self.endIndex = endIndex
        self.rank = rank
    }
}
