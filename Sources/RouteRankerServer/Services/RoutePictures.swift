import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Pictures of one route as one reader sees it: drawn from the points the reader's lens lets
/// through, so a point in a privacy zone never reaches anyone but the owner.
struct RoutePictures: Sendable {
    let buckets: PointBuckets
    /// The operator's map tiles (`--tile-url`), for maps that ask for them.
    let tiles: MapTiles?

    /// The route's committed points the lens shows, in order.
    func visiblePoints(_ route: StoredRoute, lens: RouteViewer.Lens) async throws -> [TrackPoint] {
        var points: [TrackPoint] = []
        points.reserveCapacity(route.pointCount)
        for try await chunk in buckets.read(route) {
            if lens.zones.isEmpty {
                points.append(contentsOf: chunk)
            } else {
                points.append(contentsOf: chunk.lazy.filter { !lens.hides($0) })
            }
        }
        return points
    }

    /// The map, `width` pixels wide; over the operator's tiles when `tiled` and there are some.
    func map(_ route: StoredRoute, lens: RouteViewer.Lens, width: Int, tiled: Bool) async throws -> String {
        RouteMapPicture.svg(
            points: try await visiblePoints(route, lens: lens), width: Double(width), title: "Map of \(route.name)",
            tiles: tiled ? tiles : nil)
    }

    /// The tiles a map asked for `tiled` is drawn over: the operator's, or none.
    func tiles(tiled: Bool) -> MapTiles? { tiled ? tiles : nil }

    /// The profile chart, `width` pixels wide.
    func profile(_ route: StoredRoute, lens: RouteViewer.Lens, y: ProfileY, x: ProfileX, width: Int) async throws
        -> String
    {
        ProfileChart.svg(
            points: try await visiblePoints(route, lens: lens), y: y, x: x, width: Double(width),
            title: "\(route.name): \(y.rawValue) by \(x.rawValue)")
    }

    /// The tag of a picture of `route` through `lens`: changes with the route, the owner's zones
    /// and the picture asked for, like the downloads' tags.
    static func etag(_ route: StoredRoute, lens: RouteViewer.Lens, _ picture: String...) -> ETag {
        ETag(([route.id, String(route.version), lens.tag] + picture).joined(separator: "."))
    }
}
