import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// What a reader sees of a route. The owner sees everything; everyone else — friends it is shared
/// with, link holders — sees it without the points (and annotations) inside the owner's privacy
/// zones, with `start`, `end` and `bbox` of the points they can see.
struct RouteViewer: Sendable {
    let users: UserRepository
    let routes: RouteRepository
    let buckets: PointBuckets

    /// The owner's zones as they apply to one reader.
    typealias Lens = PrivacyLens

    /// The lens for `viewer` (nil for a link holder) reading routes of `owner`.
    func lens(owner: String, viewer: String?) async throws -> Lens {
        guard owner != viewer else { return .owner }
        let privacy = try await users.privacy(of: [owner])[owner]
        return lens(privacy)
    }

    func lens(_ privacy: (zones: [PrivacyZone], version: Int)?) -> Lens {
        Lens(zones: privacy?.zones ?? [], tag: "z\(privacy?.version ?? 0)")
    }

    /// The summary as the lens shows it (`shared_with` for the owner only).
    func summary(_ route: StoredRoute, lens: Lens, sharedWith: [String]? = nil, distance: Double? = nil)
        async throws -> RouteSummary
    {
        var summary = RouteSummary(route.record, sharedWith: lens.isOwner ? sharedWith : nil)
        summary.distanceFromM = distance
        guard !lens.zones.isEmpty else { return summary }
        summary.annotations = summary.annotations?.filter {
            !PrivacyZone.hides(Coordinate(lat: $0.lat, lon: $0.lon), zones: lens.zones)
        }
        summary.stats = try await extent(of: route, lens: lens).apply(to: route.stats)
        return summary
    }

    /// The visible start, end and bbox: the whole route's when no zone comes near its bbox,
    /// else computed over its points once per (route version, zones version) and cached in the
    /// route document.
    func extent(of route: StoredRoute, lens: Lens) async throws -> StoredExtent {
        let whole = StoredExtent(start: route.stats.start, end: route.stats.end, bbox: route.stats.bbox)
        guard let bbox = route.stats.bbox, lens.zones.contains(where: { $0.mayTouch(bbox) }) else { return whole }
        let key = "v\(route.version).\(lens.tag)"
        if let cached = try await routes.cachedExtent(route: route.id, key: key) { return cached }
        var extent = VisibleExtent()
        for try await chunk in buckets.read(route) {
            for point in chunk { extent.add(point, hiddenBy: lens.zones) }
        }
        let computed = StoredExtent(start: extent.start, end: extent.end, bbox: extent.bbox)
        try await routes.cacheExtent(computed, route: route.id, key: key, version: route.version)
        return computed
    }
}

extension PrivacyZone {
    /// Whether this zone might contain a point of `bbox`: its centre lies within the box grown by
    /// the radius (a conservative test in degrees; near the poles it always says yes).
    func mayTouch(_ bbox: BoundingBox) -> Bool {
        let latMargin = radiusM / 110_000
        let maxLat = max(abs(bbox.minLat), abs(bbox.maxLat)) + latMargin
        guard maxLat < 85 else { return true }
        let lonMargin = radiusM / (110_000 * cos(maxLat * .pi / 180))
        let inLat = lat >= bbox.minLat - latMargin && lat <= bbox.maxLat + latMargin
        let inLon = lon >= bbox.minLon - lonMargin && lon <= bbox.maxLon + lonMargin
        // A box across the antimeridian has minLon > maxLon in no case here (bbox is plain
        // min/max), so a route crossing it simply has a wide box: conservative again.
        return inLat && inLon
    }
}
