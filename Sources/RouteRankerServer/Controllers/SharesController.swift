import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Sharing a route with friends, and the inbox of routes shared with me ("Get Paths").
struct SharesController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let users: UserRepository
    let routes: RouteRepository
    let shares: ShareRepository
    let viewer: RouteViewer

    /// `POST /v1/routes/{id}/shares`: `201`, or `200` with the first share if it already exists.
    func share(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<ShareView> {
        let (user, route) = try await owner(request, context)
        let body = try await request.decodeJSON(ShareRequest.self)
        try UserRules.validateID(body.to, field: "to")
        guard body.to != user.id else { throw APIError.unprocessable("a route cannot be shared with its owner") }
        guard try await users.find(id: body.to) != nil else { throw APIError.notFound("user not found") }
        guard user.friends.contains(body.to) else {
            throw APIError.forbidden("routes can only be shared with users in your friends list")
        }
        let (share, created) = try await shares.share(route: route.id, owner: user.id, to: body.to)
        return JSONResponse(status: created ? .created : .ok, body: ShareView(share))
    }

    /// `GET /v1/routes/{id}/shares`: the recipients, newest first.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<ShareView> {
        let (_, route) = try await owner(request, context)
        let list = "shares:\(route.id)"
        let page = try PageRequest(request, list: list, shape: .dateThenID)
        // The shares the route's readers confirm (see `RouteAccess+Lists.swift`): the same people as `shared_with`.
        let all = try await shares.shares(of: route.id).filter { route.readers.contains($0.to) }
        let sliced = page.page(
            of: all, list: list, key: { [$0.sharedAt.millisecondsKey, $0.to] }, isAfter: NewestFirst.thenByKey)
        return Page(items: sliced.items.map(ShareView.init), next: sliced.next, total: all.count)
    }

    /// `DELETE /v1/routes/{id}/shares/{user}`: from now on that user gets `404`.
    func revoke(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let (_, route) = try await owner(request, context)
        guard try await shares.revoke(route: route.id, to: try context.parameters.require("user")) else {
            throw APIError.notFound("share not found")
        }
        return NoContent()
    }

    /// The caller and route `{id}`, which they must own.
    private func owner(_ request: Request, _ context: AppRequestContext) async throws -> (UserRecord, StoredRoute) {
        let owned = try await access.owned(try context.parameters.require("id"), token: try auth.token(request))
        return (owned.user, owned.route)
    }

    /// `GET /v1/shares`: the routes shared with me, newest first — the caller, the page, its routes,
    /// their owners and the total read together (`RequestReads.inbox`).
    func inbox(_ request: Request, _ context: AppRequestContext) async throws -> Page<InboxItem> {
        let token = try auth.token(request)
        let page: PageRequest
        let after: (Date, String)?
        do {
            page = try PageRequest(request, list: "inbox", shape: .dateThenID)
            // `[milliseconds, share id]`, in range: `PageRequest` checked the shape.
            after = try page.after.map { position -> (Date, String) in
                guard position.count == 2, let ms = Int64(position[0]) else {
                    throw APIError.invalid("'cursor' is not a cursor of this list", field: "cursor")
                }
                return (Date(timeIntervalSince1970: Double(ms) / 1000), position[1])
            }
        } catch {
            _ = try await auth.user(request)  // a wrong token is answered first, as everywhere
            throw error
        }
        let found = try await RequestReads(users: users).inbox(token: token, after: after, limit: page.limit + 1)
        let user = try auth.accept(token, found: found.user)
        let items = Array(found.shares.prefix(page.limit))
        var entries: [InboxItem] = []
        for share in items {
            guard let stored = try found.routes[share.route]?.record() else { continue }
            let owner = found.owners[stored.owner]
            guard
                let reading = access.reading(
                    stored, by: user, ownerPrivacy: owner.map { (zones: $0.zones, version: $0.version) })
            else { continue }
            let route = reading.route
            let summary = try await viewer.summary(route, lens: reading.lenses.privacy)
            entries.append(
                InboxItem(
                    route: route.id, name: route.name, owner: .init(id: route.owner, name: owner?.name ?? route.owner),
                    sharedAt: share.sharedAt, stats: summary.stats))
        }
        let next = found.shares.count > page.limit ? items.last.map { Self.inboxCursor($0) } : nil
        return Page(items: entries, next: next, total: found.total)
    }

    private static func inboxCursor(_ share: ShareRecord) -> String {
        Cursor(
            list: "inbox", key: [share.sharedAt.millisecondsKey, ShareRepository.id(route: share.route, to: share.to)]
        )
        .encoded
    }
}
