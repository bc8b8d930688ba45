import Foundation
import RouteRankerCore

/// `POST /v1/routes/{id}/shares` body.
package struct ShareRequest: Decodable {
    package var to: String

    package init(to: String) {
        self.to = to
    }
}

/// A share as the owner sees it: `{"route","to","shared_at"}`.
package struct ShareView: Encodable {
    package var route: String
    package var to: String
    package var sharedAt: Date

    package init(_ share: ShareRecord) {
        route = share.route
        to = share.to
        sharedAt = share.sharedAt
    }
}

/// One entry of the inbox (`GET /v1/shares`).
package struct InboxItem: Encodable {
    package struct Owner: Encodable {
        package var id: String
        package var name: String

        package init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    package var route: String
    package var name: String
    package var owner: Owner
    package var sharedAt: Date
    package var stats: RouteStats

    package init(route: String, name: String, owner: Owner, sharedAt: Date, stats: RouteStats) {
        self.route = route
        self.name = name
        self.owner = owner
        self.sharedAt = sharedAt
        self.stats = stats
    }
}

/// `POST /v1/routes/{id}/links` body.
package struct LinkRequest: Decodable {
    package var expiresInS: Double?

    package init(expiresInS: Double? = nil) {
        self.expiresInS = expiresInS
    }

    private enum CodingKeys: String, CodingKey { case expiresInS = "expires_in_s" }
}

/// The answer to creating a link: the only time its secret (in `url`) is shown.
package struct CreatedLink: Encodable {
    package var id: String
    package var url: String
    /// The link as a page for people: `/l/<secret>`.
    package var pageURL: String
    package var expiresAt: Date

    package init(id: String, url: String, pageURL: String, expiresAt: Date) {
        self.id = id
        self.url = url
        self.pageURL = pageURL
        self.expiresAt = expiresAt
    }
}

/// A link as listed: never the secret.
package struct LinkView: Encodable {
    package var id: String
    package var createdAt: Date
    package var expiresAt: Date

    package init(_ link: LinkRecord) {
        id = link.id
        createdAt = link.createdAt
        expiresAt = link.expiresAt
    }
}
