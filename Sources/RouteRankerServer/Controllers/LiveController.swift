import Foundation
import HTTPTypes
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Live following (API.md "Live following"): a route as Server-Sent Events while it is recorded.
/// Refusals (`401`, `404`, a bad `Last-Event-ID` or `?from=`) are ordinary JSON errors, decided
/// before the stream starts; from then on the route's changes come from the process's `LiveHub`.
struct LiveController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let hub: LiveHub
    let buckets: PointBuckets
    let viewer: RouteViewer
    let clock: WallClock

    /// `GET /v1/routes/{id}/live`: for the owner and the users it is shared with.
    func route(_ request: Request, _ context: AppRequestContext) async throws -> LiveEventStream {
        let id = try context.parameters.require("id")
        let token = try auth.token(request)
        let reading = try await access.reading(id, token: token)
        let from = try Self.startIndex(request)
        // Access is decided again, with the same token, whenever the route or its sharing changes:
        // a route no longer visible, or a token rotated since, ends the stream with `gone`.
        let follower = follower(viewerID: reading.user.id, link: nil, admits: { reading.admits($0) }) { [access] in
            do {
                let again = try await access.reading(id, token: token)
                return (again.route, again.lenses)
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
        guard let reading = try await access.linkReading(secret) else { throw APIError.linkNotFound }
        let (link, route) = (reading.link, reading.route)
        let from = try Self.startIndex(request)
        // The link's access is the link's: rechecked (revoked, expired, its route gone), never the
        // route's readers.
        let follower = follower(viewerID: nil, link: (link.id, link.expiresAt), admits: { _ in true }) {
            [access] in
            try await access.linkReading(secret).map { ($0.route, $0.lenses) }
        }
        return LiveEventStream(channel: context.channel) { emit in try await follower.run(route, from: from, emit: emit)
        }
    }

    private func follower(
        viewerID: String?, link: (id: String, expiresAt: Date)?, admits: @escaping @Sendable (StoredRoute) -> Bool,
        access: @escaping @Sendable () async throws -> (route: StoredRoute, lenses: RouteAccess.Lenses)?
    ) -> LiveFollower {
        LiveFollower(
            hub: hub, buckets: buckets, viewer: viewer, clock: clock, access: access, admits: admits,
            viewerID: viewerID, link: link)
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
