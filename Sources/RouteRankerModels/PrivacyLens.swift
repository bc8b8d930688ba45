import RouteRankerCore

/// The owner's zones as they apply to one reader.
package struct PrivacyLens: Sendable {
    /// Empty for the owner.
    package var zones: [PrivacyZone]
    /// Part of cache keys and ETags: changes with the zones.
    package var tag: String

    package init(zones: [PrivacyZone], tag: String) {
        self.zones = zones
        self.tag = tag
    }

    package static let owner = PrivacyLens(zones: [], tag: "o")

    package var isOwner: Bool { tag == "o" }

    package func hides(_ point: TrackPoint) -> Bool { PrivacyZone.hides(point.coordinate, zones: zones) }
}

/// A visible extent as cached in a route document.
package struct StoredExtent: Codable, Sendable, Equatable {
    package var start: RouteStats.Endpoint?
    package var end: RouteStats.Endpoint?
    package var bbox: BoundingBox?

    package init(start: RouteStats.Endpoint? = nil, end: RouteStats.Endpoint? = nil, bbox: BoundingBox? = nil) {
        self.start = start
        self.end = end
        self.bbox = bbox
    }

    package func apply(to stats: RouteStats) -> RouteStats {
        var stats = stats
        stats.start = start
        stats.end = end
        stats.bbox = bbox
        return stats
    }
}
