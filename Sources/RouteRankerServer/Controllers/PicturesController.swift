import Crypto
import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Pictures of routes: the map and the profile for a route's readers, the map for link holders.
/// Access is exactly the JSON's: `RouteAccess`, for a token or a link's secret.
struct PicturesController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let pictures: RoutePictures
    /// Drawing runs as costly work, keyed by the reader (a link's pictures by the link's route).
    let costly: CostlyWork

    /// `GET /v1/routes/{id}/map.svg?width=&tiles=`.
    func routeMap(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        return try await map(reading.route, lens: reading.lenses.privacy, request, key: reading.user.id)
    }

    /// `GET /v1/routes/{id}/profile.svg?y=elevation|speed|pace&x=distance|time&width=`.
    func routeProfile(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        let (route, lens) = (reading.route, reading.lenses.privacy)
        let width = try PictureQuery.width(request)
        let y = try Self.choice(request, "y", default: ProfileY.elevation)
        let x = try Self.choice(request, "x", default: ProfileX.distance)
        let etag = RoutePictures.etag(route, lens: lens, "profile", y.rawValue, x.rawValue, String(width))
        return try await SVGResponse.tagged(etag, request) {
            try await costly.run(user: reading.user.id) {
                try await pictures.profile(route, lens: lens, y: y, x: x, width: width)
            }
        }
    }

    /// `GET /v1/links/{secret}/map.svg?width=&tiles=`: as anyone but the owner sees it.
    func linkMap(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let reading = try await access.reading(link: try context.parameters.require("secret"))
        return try await map(reading.route, lens: reading.lenses.privacy, request, key: "link:\(reading.route.id)")
    }

    /// The map of `route` through `lens` as the query asks; its tag names the tile server it is
    /// drawn over, so that a cached plain map is never taken for a tiled one.
    private func map(_ route: StoredRoute, lens: RouteViewer.Lens, _ request: Request, key: String) async throws
        -> SVGResponse
    {
        let width = try PictureQuery.width(request)
        let tiled = try PictureQuery.tiles(request)
        let tiles = pictures.tiles(tiled: tiled)
        let etag = RoutePictures.etag(route, lens: lens, "map", String(width), tiles.map(Self.tag) ?? "")
        return try await SVGResponse.tagged(etag, request, tileOrigin: tiles?.origin) {
            try await costly.run(user: key) { try await pictures.map(route, lens: lens, width: width, tiled: tiled) }
        }
    }

    /// A short tag of a tile server: maps over different tiles (or credits) differ.
    private static func tag(_ tiles: MapTiles) -> String {
        String(Hex.string(SHA256.hash(data: Data((tiles.template + "\u{0}" + tiles.attribution).utf8))).prefix(12))
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ request: Request, _ name: String, default: T)
        throws -> T where T.RawValue == String
    {
        guard let raw = request.query[name] else { return `default` }
        guard let value = T(rawValue: raw) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.invalid("'\(name)' must be one of \(names)", field: name)
        }
        return value
    }
}
