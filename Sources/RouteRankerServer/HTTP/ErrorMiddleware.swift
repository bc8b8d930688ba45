import Hummingbird
import Logging

/// Turns every error into the contract's error response, and Hummingbird's "no route" into `404`
/// or, for a known path with another method, `405` with `Allow`. Unexpected errors are logged
/// here, once, and answered with a bare `500`: a client never sees a stack trace.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let allowed: AllowedMethods

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Handlers throw `APIError`; an `HTTPError` 404 can only be the router finding no route.
            if let methods = allowed.methods(for: request.uri.path) {
                return try APIError.methodNotAllowed(allow: methods).response(from: request, context: context)
            }
            return try APIError.notFound("no such endpoint").response(from: request, context: context)
        } catch {
            let mapped = APIError(mapping: error)
            if mapped == .internal {
                context.logger.error(
                    "request failed",
                    metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            } else if mapped == .unavailable || mapped == .overloaded {
                context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
            }
            return try mapped.response(from: request, context: context)
        }
    }
}
