import Foundation
import Hummingbird

/// Sharing a route with friends, and the inbox of routes shared with me ("Get Paths").
struct SharesController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let users: UserRepository
    let routes: RouteRepository
    let shares: ShareRepository
    let viewer: RouteViewer

    /// `POST /v1/routes/{id}/shares`: `201`, or `200` with the first share if it already exists.
    func share(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<ShareView> {
        let user = try await auth.user(request)
        let route = try await visibility.owned(try context.parameters.require("id"), by: user)
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
        let user = try await auth.user(request)
        let route = try await visibility.owned(try context.parameters.require("id"), by: user)
        let list = "shares:\(route.id)"
        let page = try PageRequest(request, list: list)
        let all = try await shares.shares(of: route.id)
        let sliced = page.page(
            of: all, list: list, key: { [$0.sharedAt.millisecondsKey, $0.to] }, isAfter: NewestFirst.thenByKey)
        return Page(items: sliced.items.map(ShareView.init), next: sliced.next, total: all.count)
    }

    /// `DELETE /v1/routes/{id}/shares/{user}`: from now on that user gets `404`.
    func revoke(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let user = try await auth.user(request)
        let route = try await visibility.owned(try context.parameters.require("id"), by: user)
        guard try await shares.revoke(route: route.id, to: try context.parameters.require("user")) else {
            throw APIError.notFound("share not found")
        }
        return NoContent()
    }

    /// `GET /v1/shares`: the routes shared with me, newest first — one query for the page, then one
    /// batched lookup each for the routes and their owners.
    func inbox(_ request: Request, _ context: AppRequestContext) async throws -> Page<InboxItem> {
        let user = try await auth.user(request)
        let page = try PageRequest(request, list: "inbox")
        let after = try page.after.map { position -> (Date, String) in
            guard position.count == 2, let ms = Int64(position[0]) else {
                throw APIError.invalid("'cursor' is not a cursor of this list", field: "cursor")
            }
            return (Date(timeIntervalSince1970: Double(ms) / 1000), position[1])
        }
        let found = try await shares.inbox(of: user.id, after: after, limit: page.limit + 1)
        let items = Array(found.prefix(page.limit))
        let sharedRoutes = try await routes.find(ids: items.map(\.route))
        let owners = try await users.names(of: Array(Set(items.map(\.owner))))
        let names = Dictionary(owners.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let privacy = try await users.privacy(of: Array(Set(items.map(\.owner))))
        var entries: [InboxItem] = []
        for share in items {
            guard let route = sharedRoutes[share.route] else { continue }
            let summary = try await viewer.summary(route, lens: viewer.lens(privacy[route.owner]))
            entries.append(
                InboxItem(
                    route: route.id, name: route.name,
                    owner: .init(id: route.owner, name: names[route.owner] ?? route.owner), sharedAt: share.sharedAt,
                    stats: summary.stats))
        }
        let next = found.count > page.limit ? items.last.map { Self.inboxCursor($0) } : nil
        return Page(items: entries, next: next, total: try await shares.count(to: user.id))
    }

    private static func inboxCursor(_ share: ShareRecord) -> String {
        Cursor(
            list: "inbox", key: [share.sharedAt.millisecondsKey, ShareRepository.id(route: share.route, to: share.to)]
        )
        .encoded
    }
}
