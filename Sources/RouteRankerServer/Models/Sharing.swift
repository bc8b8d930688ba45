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

/// Privacy zones: `[{"lat","lon","radius_m"}]`, at most 10, radius 100–2000 m.
struct PrivacyZoneList: APIResponse, Decodable {
    var zones: [PrivacyZone]

    init(_ zones: [PrivacyZone]) { self.zones = zones }

    init(from decoder: any Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            throw InvalidInput("the body must be an array of zones", field: "zones")
        }
        var zones: [PrivacyZone] = []
        while !container.isAtEnd {
            let index = container.currentIndex
            guard let zone = try? container.decode(RawZone.self), let lat = zone.lat, let lon = zone.lon,
                let radius = zone.radius_m
            else {
                throw InvalidInput(
                    "zone \(index) must be an object with numbers lat, lon and radius_m", field: "zones", index: index)
            }
            guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw InvalidInput(
                    "zone \(index): lat must be in [-90, 90] and lon in [-180, 180]", field: "zones", index: index)
            }
            guard radius.isFinite, (100...2000).contains(radius) else {
                throw InvalidInput(
                    "zone \(index): radius_m must be between 100 and 2000", field: "zones", index: index,
                    key: "radius_m")
            }
            zones.append(PrivacyZone(lat: lat, lon: lon, radiusM: radius))
        }
        guard zones.count <= 10 else { throw InvalidInput("at most 10 privacy zones", field: "zones") }
        self.zones = zones
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(zones)
    }

    private struct RawZone: Decodable {
        var lat: Double?
        var lon: Double?
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var radius_m: Double?
    }
}
