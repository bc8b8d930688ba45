import Foundation
import RouteRankerCore

/// `POST /v1/routes/{id}/shares` body.
struct ShareRequest: Decodable {
    var to: String
}

/// A share as the owner sees it: `{"route","to","shared_at"}`.
struct ShareView: APIResponse {
    var route: String
    var to: String
    var sharedAt: Date

    init(_ share: ShareRecord) {
        route = share.route
        to = share.to
        sharedAt = share.sharedAt
    }
}

/// One entry of the inbox (`GET /v1/shares`).
struct InboxItem: Encodable {
    struct Owner: Encodable {
        var id: String
        var name: String
    }
    var route: String
    var name: String
    var owner: Owner
    var sharedAt: Date
    var stats: RouteStats
}

/// `POST /v1/routes/{id}/links` body.
struct LinkRequest: Decodable {
    var expiresInS: Double?

    private enum CodingKeys: String, CodingKey { case expiresInS = "expires_in_s" }
}

/// The answer to creating a link: the only time its secret (in `url`) is shown.
struct CreatedLink: Encodable {
    var id: String
    var url: String
    /// The link as a page for people: `/l/<secret>`.
    var pageURL: String
    var expiresAt: Date
}

/// A link as listed: never the secret.
struct LinkView: Encodable {
    var id: String
    var createdAt: Date
    var expiresAt: Date

    init(_ link: LinkRecord) {
        id = link.id
        createdAt = link.createdAt
        expiresAt = link.expiresAt
    }
}
