import Foundation
import HTTPTypes
import Hummingbird
import RouteRankerCore

/// An HTML page for people, sent with a `Content-Security-Policy` that lets it use nothing from
/// another origin (and no inline script or style) but the operator's map tiles, when there are
/// some; and without a `Referer` for where it links to (a link page's address holds its secret).
struct WebPage: ResponseGenerator, Sendable, Equatable {
    var html: String
    /// The origin of the map tiles the page may show (`MapTiles.origin`), if any.
    var tileOrigin: String? = nil

    /// The policy of every page and web app file: its own origin only, and `tileOrigin`'s images.
    static func contentSecurityPolicy(tileOrigin: String?) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:"
            + (tileOrigin.map { " " + $0 } ?? "") + "; connect-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    /// Headers every page and web app file is sent with.
    static func securityHeaders(tileOrigin: String? = nil) -> HTTPFields {
        [
            .contentSecurityPolicy: contentSecurityPolicy(tileOrigin: tileOrigin), .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
    }

    /// The `404` page of a share link that cannot be used (made up, expired or revoked).
    static let linkGone = WebPage(html: WebResources.text("link-gone.html"))

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = Self.securityHeaders(tileOrigin: tileOrigin)
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "private, no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// A logic-less template: `{{name}}` is replaced by the value escaped for HTML, `{{{name}}}` by
/// markup the server made itself (the pictures). A name without a value is an empty string.
enum PageTemplate {
    static func render(_ template: String, text: [String: String], markup: [String: String] = [:]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            let isRaw = rest[open.upperBound...].hasPrefix("{")
            let nameStart = isRaw ? rest.index(after: open.upperBound) : open.upperBound
            let closing = isRaw ? "}}}" : "}}"
            guard let close = rest[nameStart...].range(of: closing) else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = String(rest[nameStart..<close.lowerBound]).trimmingCharacters(in: .whitespaces)
            out += isRaw ? (markup[name] ?? "") : XMLText.escape(text[name] ?? "")
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
