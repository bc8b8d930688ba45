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

    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'"

    /// The answer for a request whose `If-None-Match` may name `etag`: `304` without drawing when
    /// it does, else the picture `draw` makes.
    static func tagged(_ etag: ETag, _ request: Request, draw: () async throws -> String) async rethrows -> SVGResponse
    {
        if etag.matches(request) { return SVGResponse(svg: nil, etag: etag) }
        return SVGResponse(svg: try await draw(), etag: etag)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.cacheControl: cacheControl]
        if let etag { headers[.eTag] = etag.value }
        guard let svg else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "image/svg+xml; charset=utf-8"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}

/// The query of a picture: `?width=` in pixels (100–2000, default 640).
enum PictureQuery {
    static let defaultWidth = 640

    static func width(_ request: Request) throws -> Int {
        guard let raw = request.query["width"] else { return defaultWidth }
        guard let width = Int(raw), (100...2000).contains(width) else {
            throw APIError.invalid("'width' must be a whole number of pixels from 100 to 2000", field: "width")
        }
        return width
    }
}
