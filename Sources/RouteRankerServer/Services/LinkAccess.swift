import Foundation

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
        guard secret.utf8.count <= 256, let link = try await links.find(secretHash: Secret.hash(secret)),
            Secret.matches(secret, storedHash: link.secretHash), link.expiresAt > clock.now,
            let route = try await routes.find(id: link.route)
        else { throw LinkNotUsable() }
        return route
    }
}
