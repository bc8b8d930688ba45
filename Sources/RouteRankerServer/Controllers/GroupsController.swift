import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Groups of routes: create (from ids or from the routes similar to one), list, read, change, delete.
struct GroupsController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let groups: GroupRepository
    let viewer: RouteViewer
    let users: UserRepository
    let similar: SimilarRoutes
    /// `similar_to` compares routes: costly work, off the shared threads and bounded per user.
    let costly: CostlyWork
    let clock: WallClock

    /// `POST /v1/groups`: every route must be visible to me (else `422` naming the bad ids).
    func create(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<GroupView> {
        let user = try await auth.user(request)
        let body = try await request.decodeJSON(GroupCreateRequest.self)
        let name = try RouteRules.name(body.name ?? "")
        let ids: [String]
        switch (body.routes, body.similarTo) {
        case (let routes?, nil):
            ids = try await visibleMembers(try Self.idList(routes, field: "routes"), of: user)
        case (nil, let anchor?):
            let maxM = try SimilarRoutes.validMaxM(body.maxM)
            let route: StoredRoute
            do {
                route = try await access.reading(anchor, token: try auth.token(request)).route
            } catch is RouteNotVisible {
                throw APIError.unprocessable(
                    "'similar_to' names a route you cannot see", details: ["routes": .array([.string(anchor)])])
            }
            let matches = try await costly.run(user: user.id) {
                try await similar.matches(of: route, for: user, maxM: maxM)
            }
            ids = SimilarRoutes.ranked(matches).map(\.route)
        default:
            throw APIError.invalid("give either 'routes' or 'similar_to'", field: "routes")
        }
        let group = GroupRecord(
            id: NewID.make(), owner: user.id, name: name, routes: ids, createdAt: clock.now)
        try await groups.insert(group)
        return .created(GroupView(id: group.id, name: group.name, routes: group.routes, createdAt: group.createdAt))
    }

    /// `GET /v1/groups`: my groups, newest first.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<GroupView> {
        let user = try await auth.user(request)
        let page = try PageRequest(request, list: "groups", shape: .dateThenID)
        let all = try await groups.groups(of: user.id)
        let sliced = page.page(
            of: all, list: "groups", key: { [$0.createdAt.millisecondsKey, $0.id] },
            isAfter: NewestFirst.thenByNewestID)
        var items: [GroupView] = []
        for group in sliced.items { items.append(try await view(group, for: user)) }
        return Page(items: items, next: sliced.next, total: all.count)
    }

    /// `GET /v1/groups/{id}`: the group with the summaries of its visible routes.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> GroupDetailView {
        let user = try await auth.user(request)
        let group = try await owned(context, by: user)
        // Without annotations: a group holds up to 1,000 routes of up to a megabyte of them each.
        let visible = try await access.readable(group.routes, by: user, annotations: false)
        let privacy = try await users.privacy(of: visible.values.map(\.owner))
        // The summaries `GET /v1/routes/{id}` gives but their annotations: `shared_with` on my own
        // routes.
        var summaries: [RouteSummary] = []
        for id in group.routes {
            guard let route = visible[id] else { continue }
            let lens = route.owner == user.id ? RouteViewer.Lens.owner : viewer.lens(privacy[route.owner])
            summaries.append(
                try await viewer.summary(route, lens: lens, sharedWith: route.owner == user.id ? route.recipients : []))
        }
        return GroupDetailView(id: group.id, name: group.name, routes: summaries, createdAt: group.createdAt)
    }

    /// `PATCH /v1/groups/{id}`: `name`, `add` (must be visible, else `422`), `remove`.
    func patch(_ request: Request, _ context: AppRequestContext) async throws -> GroupView {
        let user = try await auth.user(request)
        var group = try await owned(context, by: user)
        let body = try await request.decodeJSON(GroupChangeRequest.self)
        if let name = body.name { group.name = try RouteRules.name(name) }
        let removed = Set(try Self.idList(body.remove ?? [], field: "remove"))
        group.routes.removeAll { removed.contains($0) }
        let added = try await visibleMembers(try Self.idList(body.add ?? [], field: "add"), of: user)
        group.routes += added.filter { !group.routes.contains($0) }
        guard group.routes.count <= GroupRepository.maxRoutes else {
            throw APIError.invalid("a group holds at most \(GroupRepository.maxRoutes) routes", field: "add")
        }
        try await groups.replace(group)
        return try await view(group, for: user)
    }

    /// `DELETE /v1/groups/{id}`.
    func delete(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let user = try await auth.user(request)
        guard try await groups.delete(id: try context.parameters.require("id"), owner: user.id) else {
            throw APIError.groupNotFound
        }
        return NoContent()
    }

    /// The group `{id}` if I own it; anyone else's is `404`.
    private func owned(_ context: AppRequestContext, by user: UserRecord) async throws -> GroupRecord {
        try await groups.owned(try context.parameters.require("id"), by: user)
    }

    private func view(_ group: GroupRecord, for user: UserRecord) async throws -> GroupView {
        let visible = try await access.readable(group.routes, by: user)
        return GroupView(
            id: group.id, name: group.name, routes: group.routes.filter { visible[$0] != nil },
            createdAt: group.createdAt)
    }

    /// `ids` if every one is visible to `user`, else `422` naming those that are not.
    private func visibleMembers(_ ids: [String], of user: UserRecord) async throws -> [String] {
        let visible = try await access.readable(ids, by: user)
        let bad = ids.filter { visible[$0] == nil }
        guard bad.isEmpty else {
            throw APIError.unprocessable(
                "these routes do not exist or are not visible to you: \(bad.joined(separator: ", "))",
                details: ["routes": .array(bad.map { .string($0) })])
        }
        return ids
    }

    /// A list of route ids: strings, at most 1000, duplicates dropped (first kept).
    private static func idList(_ ids: [String], field: String) throws -> [String] {
        guard ids.count <= GroupRepository.maxRoutes else {
            throw APIError.invalid("'\(field)' may list at most \(GroupRepository.maxRoutes) routes", field: field)
        }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
