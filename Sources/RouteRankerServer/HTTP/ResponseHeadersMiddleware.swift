import HTTPTypes
import Hummingbird

/// The headers API.md asks of every answer, in one place: `X-Content-Type-Options: nosniff`
/// everywhere (JSON, downloads, pictures, pages, errors), and on an answer to an authenticated
/// request (one with an `Authorization` header) `Cache-Control: private, no-cache` unless the
/// handler chose its own — an answer that carries a secret chooses `no-store` with
/// ``CarriesSecret``. The HTTP layer's own error answers get theirs in `ProtocolErrorAnswer`.
struct ResponseHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil, request.headers[.authorization] != nil {
            response.headers[.cacheControl] = "private, no-cache"
        }
        return response
    }
}

/// A handler's answer that carries a secret — a token, a device key, a link secret — marked
/// `Cache-Control: no-store` so that no cache, shared or private, keeps a copy.
struct CarriesSecret<Inner: ResponseGenerator>: ResponseGenerator {
    var inner: Inner

    init(_ inner: Inner) { self.inner = inner }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try inner.response(from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
