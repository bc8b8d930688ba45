import Foundation
import HTTPTypes
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Live following (API.md "Live following"): a route as Server-Sent Events while it is recorded.
/// Refusals (`401`, `404`, a bad `Last-Event-ID` or `?from=`) are ordinary JSON errors, decided
/// before the stream starts; from then on the route's changes come from the process's `LiveHub`.
struct LiveController: Sendable {
    let access: RouteAccess
    let links: LinkAccess
    let hub: LiveHub
    let buckets: PointBuckets
    let viewer: RouteViewer
    let clock: WallClock

    /// `GET /v1/routes/{id}/live`: for the owner and the users it is shared with.
    func route(_ request: Request, _ context: AppRequestContext) async throws -> LiveEventStream {
        let id = try context.parameters.require("id")
        let token = try access.auth.token(request)
        let reading = try await access.reading(id, token: token)
        let from = try Self.startIndex(request)
        // Access is decided again, with the same token, whenever the route or its sharing changes:
        // a route no longer visible, or a token rotated since, ends the stream with `gone`.
        let follower = follower(viewerID: reading.user.id, link: nil) { [access] in
            do {
                return try await access.reading(id, token: token).route
            } catch is RouteNotVisible {
                return nil
            } catch let error as APIError where error.status == .unauthorized {
                return nil
            }
        }
        let route = reading.route
        return LiveEventStream(channel: context.channel) { emit in try await follower.run(route, from: from, emit: emit)
        }
    }

    /// `GET /v1/links/{secret}/live`: for anyone holding a valid link (no `Authorization`, so a
    /// browser's `EventSource` can follow). Revoking or expiring the link ends the stream with `gone`;
    /// every unusable secret is the same `404` as the link's other endpoints.
    func link(_ request: Request, _ context: AppRequestContext) async throws -> LiveEventStream {
        let secret = try context.parameters.require("secret")
        guard let (link, route) = try await links.linked(secret) else { throw APIError.linkNotFound }
        let from = try Self.startIndex(request)
        let follower = follower(viewerID: nil, link: (link.id, link.expiresAt)) { [links] in
            try await links.linked(secret)?.route
        }
        return LiveEventStream(channel: context.channel) { emit in try await follower.run(route, from: from, emit: emit)
        }
    }

    private func follower(
        viewerID: String?, link: (id: String, expiresAt: Date)?,
        access: @escaping @Sendable () async throws -> RouteRecord?
    ) -> LiveFollower {
        LiveFollower(
            hub: hub, buckets: buckets, viewer: viewer, clock: clock, access: access, viewerID: viewerID, link: link)
    }

    /// The first visible index to send: `Last-Event-ID` (what a reconnecting `EventSource` sends),
    /// else `?from=`, else 0. Either must be a whole number from 0 to 1,000,000 (`400` otherwise).
    static func startIndex(_ request: Request) throws -> Int {
        let from = try request.query["from"].map { try index($0, field: "from") }
        if let header = request.headers[HTTPField.Name("Last-Event-ID")!] {
            return try index(header, field: "Last-Event-ID")
        }
        return from ?? 0
    }

    private static func index(_ raw: String, field: String) throws -> Int {
        guard let value = Int(raw.trimmingCharacters(in: .whitespaces)), (0...1_000_000).contains(value),
            raw.trimmingCharacters(in: .whitespaces).allSatisfy(\.isASCII)
        else { throw InvalidInput("'\(field)' must be a whole number from 0 to 1000000", field: field) }
        return value
    }
}
