import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Share links for people without an account: a secret URL that reads one route until it expires
/// or is revoked.
struct LinksController: Sendable {
    static let defaultLifetime: TimeInterval = 7 * 24 * 3600
    static let maxLifetime: TimeInterval = 90 * 24 * 3600

    let auth: Authenticator
    let access: RouteAccess
    let links: LinkRepository
    let viewer: RouteViewer
    let buckets: PointBuckets
    let clock: WallClock

    /// `POST /v1/routes/{id}/links`: `201 {"id","url","page_url","expires_at"}`; the secret (256 random bits)
    /// is in `url`, shown once, stored only as its SHA-256.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> CarriesSecret<
        JSONResponse<CreatedLink>
    > {
        let (user, route) = try await owner(request, context)
        let body = try await request.decodeOptionalJSON(LinkRequest.self)
        let lifetime = body.expiresInS ?? Self.defaultLifetime
        guard lifetime > 0, lifetime <= Self.maxLifetime else {
            throw APIError.invalid(
                "'expires_in_s' must be more than 0 and at most 7776000 (90 days)", field: "expires_in_s")
        }
        let secret = Secret.generate()
        let now = clock.now
        let link = LinkRecord(
            id: NewID.make(), route: route.id, owner: user.id, secretHash: Secret.hash(secret), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime).millisecondPrecision)
        try await links.insert(link)
        return CarriesSecret(
            .created(
                CreatedLink(
                    id: link.id, url: "/v1/links/\(secret)", pageURL: "/l/\(secret)", expiresAt: link.expiresAt)))
    }

    /// The caller and route `{id}`, which they must own.
    private func owner(_ request: Request, _ context: AppRequestContext) async throws -> (UserRecord, StoredRoute) {
        let owned = try await access.owned(try context.parameters.require("id"), token: try auth.token(request))
        return (owned.user, owned.route)
    }

    /// `GET /v1/routes/{id}/links`: newest first, never the secret.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<LinkView> {
        let (_, route) = try await owner(request, context)
        let list = "links:\(route.id)"
        let page = try PageRequest(request, list: list, shape: .dateThenID)
        let all = try await links.links(of: route.id)
        let sliced = page.page(
            of: all, list: list, key: { [$0.createdAt.millisecondsKey, $0.id] }, isAfter: NewestFirst.thenByNewestID)
        return Page(items: sliced.items.map(LinkView.init), next: sliced.next, total: all.count)
    }

    /// `DELETE /v1/routes/{id}/links/{link_id}`.
    func revoke(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let (_, route) = try await owner(request, context)
        guard try await links.revoke(id: try context.parameters.require("link_id"), route: route.id) else {
            throw APIError.linkNotFound
        }
        return NoContent()
    }

    /// `GET /v1/links/{secret}`: the summary, as anyone but the owner sees it.
    func summary(_ request: Request, _ context: AppRequestContext) async throws -> RouteSummary {
        let reading = try await linkReading(context)
        return try await viewer.summary(reading.route, lens: reading.lenses.privacy)
    }

    /// `GET /v1/links/{secret}/points?format=`: the download, without the points in privacy zones.
    func points(_ request: Request, _ context: AppRequestContext) async throws -> RouteDownload {
        let reading = try await linkReading(context)
        let route = reading.route
        return RouteDownload(route: route, lens: reading.lenses.privacy) { [buckets] in buckets.read(route) }
    }

    /// The route behind the secret in the path, and how a link holder sees it: read through
    /// `RouteAccess`, as every link reader's is.
    private func linkReading(_ context: AppRequestContext) async throws -> RouteAccess.LinkReading {
        try await access.reading(link: try context.parameters.require("secret"))
    }
}
