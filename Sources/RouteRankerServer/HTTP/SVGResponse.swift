import Foundation
import Hummingbird

/// A picture: `image/svg+xml`, its own `Content-Security-Policy` (an SVG opened on its own may
/// run nothing and load nothing), and an `ETag` when the picture has one; `304` when
/// `If-None-Match` names it.
struct SVGResponse: ResponseGenerator {
    /// The document, or nil for `304 Not Modified`.
    var svg: String?
    var etag: ETag?
    /// `no-store` for a picture that holds a secret (a device's setup code).
    var cacheControl = "private, no-cache"
    /// The origin of the map tiles the picture shows (`MapTiles.origin`), if any: the only other
    /// origin it may load from, and only images.
    var tileOrigin: String? = nil

    static func contentSecurityPolicy(tileOrigin: String?) -> String {
        "default-src 'none'; style-src 'unsafe-inline'; " + (tileOrigin.map { "img-src \($0); " } ?? "")
            + "frame-ancestors 'self'"
    }

    /// The answer for a request whose `If-None-Match` may name `etag`: `304` without drawing when
    /// it does, else the picture `draw` makes.
    static func tagged(
        _ etag: ETag, _ request: Request, tileOrigin: String? = nil, draw: () async throws -> String
    ) async rethrows -> SVGResponse {
        if etag.matches(request) { return SVGResponse(svg: nil, etag: etag) }
        return SVGResponse(svg: try await draw(), etag: etag, tileOrigin: tileOrigin)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.cacheControl: cacheControl]
        if let etag { headers[.eTag] = etag.value }
        guard let svg else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/svg+xml; charset=utf-8"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(tileOrigin: tileOrigin)
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}

/// The query of a picture: `?width=` in pixels (100–2000, default 640); for maps, `?tiles=`.
enum PictureQuery {
    static let defaultWidth = 640

    /// `?tiles=true`: draw the map over the operator's tiles when the server has some (the plain
    /// map otherwise, so that a page can always ask); `false`, the default: the plain map.
    static func tiles(_ request: Request) throws -> Bool {
        switch request.query["tiles"] {
        case nil, "false": return false
        case "true": return true
        default: throw APIError.invalid("'tiles' must be true or false", field: "tiles")
        }
    }

    static func width(_ request: Request) throws -> Int {
        guard let raw = request.query["width"] else { return defaultWidth }
        guard let width = Int(raw), (100...2000).contains(width) else {
            throw APIError.invalid("'width' must be a whole number of pixels from 100 to 2000", field: "width")
        }
        return width
    }
}
