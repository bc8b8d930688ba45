import Foundation
import RouteRankerModels
import RouteRankerStorage

/// The route behind a share link's secret: the one check every link reader goes through (the
/// summary, the download, the map, the page).
struct LinkAccess: Sendable {
    let links: LinkRepository
    let routes: RouteRepository
    let clock: WallClock

    /// The linked route. Every unusable secret — unknown, expired, revoked, malformed, its route
    /// gone — is the same `LinkNotUsable`. Looked up by the secret's hash (the index holds nothing
    /// else), then compared in constant time, then checked for expiry.
    func route(secret: String) async throws -> RouteRecord {
        guard let (_, route) = try await linked(secret) else { throw LinkNotUsable() }
        return route
    }

    /// The link behind `secret` and its route, or nil when the secret is unusable (as above).
    func linked(_ secret: String) async throws -> (link: LinkRecord, route: RouteRecord)? {
        guard secret.utf8.count <= 256, let link = try await links.find(secretHash: Secret.hash(secret)),
            Secret.matches(secret, storedHash: link.secretHash), link.expiresAt > clock.now,
            let route = try await routes.find(id: link.route)
        else { return nil }
        return (link, route)
    }
}
