import Foundation
import HTTPTypes
import Hummingbird

/// One row of the route table: a method, a path template and the handler that returns its data.
struct Endpoint: Sendable {
    typealias Handler = @Sendable (Request, AppRequestContext) async throws -> Response

    let method: HTTPRequest.Method
    let path: String
    let handler: Handler

    init<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ path: String,
        _ handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) {
        self.method = method
        self.path = path
        self.handler = { request, context in
            var context = context
            context.coreContext.parameters = Self.decoded(context.parameters)
            return try await handler(request, context).response(from: request, context: context)
        }
    }

    /// `HEAD` of a `GET` row: the `GET`'s status and headers (its `Content-Length` included), no
    /// body. A streamed body's writer is never run, so a `HEAD` of a download or a live stream
    /// costs what its checks cost.
    var head: Endpoint? {
        guard method == .get else { return nil }
        let get = handler
        // `get` decodes the parameters itself: wrapped as is, not through `init`, to decode once.
        return Endpoint(method: .head, path: path) { request, context in
            let response = try await get(request, context)
            var headers = response.headers
            if headers[.contentLength] == nil, let length = response.body.contentLength {
                headers[.contentLength] = String(length)
            }
            guard headers[.contentLength] != nil else {
                // A streamed body has no length: the `HEAD` says what the `GET` says (chunked),
                // not `Content-Length: 0`. NIO's encoder sends a `HEAD`'s answer without a body.
                return Response(
                    status: response.status, headers: headers,
                    body: ResponseBody(contentLength: nil) { writer in try await writer.finish(nil) })
            }
            return Response(status: response.status, headers: headers, body: ResponseBody())
        }
    }

    private init(method: HTTPRequest.Method, path: String, handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }

    /// Path parameters percent-decoded once, as API.md says (`%2E%2E` is `..`, `%252E` is
    /// `%2E`): Hummingbird's router hands them over as they stood in the path. A parameter that
    /// is not valid percent-encoded UTF-8 stays as sent, and finds nothing.
    private static func decoded(_ parameters: Parameters) -> Parameters {
        guard parameters.contains(where: { $0.value.contains("%") }) else { return parameters }
        return Parameters(
            parameters.map { parameter in
                guard parameter.value.contains("%"), let plain = String(parameter.value).removingPercentEncoding else {
                    return parameter
                }
                return (parameter.key, Substring(plain))
            })
    }

    static func get<O: ResponseGenerator>(
        _ path: String, _ h: @escaping @Sendable (Request, AppRequestContext) async throws -> O
    ) -> Endpoint { Endpoint(.get, path, h) }

    static func post<O: ResponseGenerator>(
        _ path: String, _ h: @escaping @Sendable (Request, AppRequestContext) async throws -> O
    ) -> Endpoint { Endpoint(.post, path, h) }

    static func put<O: ResponseGenerator>(
        _ path: String, _ h: @escaping @Sendable (Request, AppRequestContext) async throws -> O
    ) -> Endpoint { Endpoint(.put, path, h) }

    static func patch<O: ResponseGenerator>(
        _ path: String, _ h: @escaping @Sendable (Request, AppRequestContext) async throws -> O
    ) -> Endpoint { Endpoint(.patch, path, h) }

    static func delete<O: ResponseGenerator>(
        _ path: String, _ h: @escaping @Sendable (Request, AppRequestContext) async throws -> O
    ) -> Endpoint { Endpoint(.delete, path, h) }
}

/// The methods each path template answers, so that a known path with the wrong method is `405`
/// with `Allow` instead of Hummingbird's `404`.
struct AllowedMethods: Sendable {
    private let table: [(segments: [Substring], methods: [HTTPRequest.Method])]

    init(_ endpoints: [Endpoint]) {
        var table: [(segments: [Substring], methods: [HTTPRequest.Method])] = []
        var index: [String: Int] = [:]
        for endpoint in endpoints {
            if let at = index[endpoint.path] {
                table[at].methods.append(endpoint.method)
            } else {
                index[endpoint.path] = table.count
                table.append((Self.segments(endpoint.path), [endpoint.method]))
            }
        }
        self.table = table
    }

    /// The methods allowed on `path`, or `nil` if no route has that shape.
    func methods(for path: String) -> [HTTPRequest.Method]? {
        let actual = Self.segments(path)
        let matches = table.filter { entry in
            entry.segments.count == actual.count
                && zip(entry.segments, actual).allSatisfy { $0.first == "{" || $0 == $1 }
        }
        guard !matches.isEmpty else { return nil }
        let methods = matches.flatMap(\.methods)
        return methods.contains(.get) && !methods.contains(.head) ? methods + [.head] : methods
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
