import Foundation

/// A route as a JSON object: `{"name"?, "activity"?, "points"?, "annotations"?, "recording"?}`.
/// The server's create and append bodies and `routeranker stats FILE.json` read it alike; points
/// and annotations are validated as they are decoded (see ``ValidatedPoints``).
public struct RouteJSONBody: Sendable, Hashable, Decodable {
    public var name: String?
    public var activity: String?
    public var points: ValidatedPoints?
    public var annotations: ValidatedAnnotations?
    public var recording: Bool?

    /// The points in the order the ingest filter takes them: sorted by `t`, stably.
    public var sortedPoints: [TrackPoint] { TrackPoint.sortedByTime(points?.points ?? []) }
}
