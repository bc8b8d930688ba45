import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// An error as the API reports it: the contract's status, a machine `code`, a message for people,
/// and details such as the offending `field`. Every error body is
/// `{"error": {"code", "message", ...details}}`; this file is the one place that decides how any
/// error becomes a response.
public struct APIError: Error, Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    public var details: [String: JSONValue]
    var headers: HTTPFields
    /// A page for people instead of the JSON error body (pages under `/l/` answer in HTML).
    var page: WebPage?

    init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String,
        details: [String: JSONValue] = [:], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    /// `400`: a malformed body or parameter. For points, `index` is the 0-based position as sent.
    static func invalid(_ message: String, field: String? = nil, index: Int? = nil, key: String? = nil) -> APIError {
        var details: [String: JSONValue] = [:]
        if let field { details["field"] = .string(field) }
        if let index { details["index"] = .int(index) }
        if let key { details["key"] = .string(key) }
        return APIError(.badRequest, "invalid_request", message, details: details)
    }

    /// `401` with the `WWW-Authenticate` challenge.
    static func unauthorized(_ message: String = "a valid bearer token is required") -> APIError {
        APIError(.unauthorized, "unauthorized", message, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, "forbidden", message) }

    /// `404`. Callers that hide existence must use one message per resource kind, so that every
    /// refusal is byte-for-byte the same.
    static func notFound(_ message: String = "not found") -> APIError { APIError(.notFound, "not_found", message) }

    static func methodNotAllowed(allow: [HTTPRequest.Method]) -> APIError {
        let list = allow.map(\.rawValue).joined(separator: ", ")
        return APIError(
            .methodNotAllowed, "method_not_allowed", "this path only accepts \(list)",
            details: ["allow": .array(allow.map { .string($0.rawValue) })], headers: [.allow: list])
    }

    static func conflict(_ message: String) -> APIError { APIError(.conflict, "conflict", message) }

    static func payloadTooLarge(_ message: String = "the request body is larger than 16 MiB") -> APIError {
        APIError(.contentTooLarge, "payload_too_large", message)
    }

    static func unsupportedMediaType(_ message: String) -> APIError {
        APIError(.unsupportedMediaType, "unsupported_media_type", message)
    }

    static func unprocessable(_ message: String, details: [String: JSONValue] = [:]) -> APIError {
        APIError(.unprocessableContent, "unprocessable", message, details: details)
    }

    /// `429`: a per-user bound is reached (imports in flight, costly requests); `Retry-After` says
    /// when a slot is likely free.
    static func tooManyRequests(_ message: String, retryAfterSeconds: Int) -> APIError {
        APIError(
            .tooManyRequests, "too_many_requests", message, headers: [.retryAfter: String(retryAfterSeconds)])
    }

    static let unavailable = APIError(
        .serviceUnavailable, "unavailable", "the database is unreachable; try again shortly",
        headers: [.retryAfter: String(Limits.retryAfterSeconds)])

    /// Too many requests already wait for a database connection: refused at once, so that a flood
    /// costs neither unbounded memory nor everyone's latency.
    static let overloaded = APIError(
        .serviceUnavailable, "unavailable", "too many requests are waiting for the database; try again shortly",
        headers: [.retryAfter: String(Limits.retryAfterSeconds)])

    /// Work stopped because the client went away (nginx's 499); only logs and metrics see it.
    static let clientClosed = APIError(
        HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), "client_closed",
        "the client closed the connection")

    static let `internal` = APIError(.internalServerError, "internal", "an unexpected error occurred")

    /// The one `404` of each resource kind whose existence is never revealed: absent and not
    /// visible give the same bytes.
    static let routeNotFound = notFound("route not found")
    static let groupNotFound = notFound("group not found")
    static let linkNotFound = notFound("link not found")

    /// The share link page's `404`: the same for every unusable secret, as a page for people.
    static let linkPageNotFound: APIError = {
        var error = notFound("link not found")
        error.page = WebPage.linkGone
        return error
    }()
    static let segmentNotFound = notFound("segment not found")
    static let deviceNotFound = notFound("device not found")
}

extension APIError {
    /// Maps any error thrown by a handler to what the client sees. Errors that are not the client's
    /// fault and not known here become a bare `500` (the details go to the log, never to the client).
    init(mapping error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as FormatError:
            self = .invalid(error.message, field: error.field, index: error.index, key: error.key)
            if let offset = error.offset { details["offset"] = .int(offset) }
        case let error as FITFileTypeError:
            self = .unprocessable(error.message)
        case let error as InvalidInput:
            self = .invalid(error.message, field: error.field, index: error.index, key: error.key)
        case is RouteNotVisible:
            self = .routeNotFound
        case is GroupNotVisible:
            self = .groupNotFound
        case is LinkNotUsable:
            self = .linkNotFound
        case is LinkPageGone:
            self = .linkPageNotFound
        case is DeviceNotVisible:
            self = .deviceNotFound
        case let error as TrackerUnauthorized:
            self = APIError(
                .unauthorized, "unauthorized", error.message, headers: [.wwwAuthenticate: #"Basic realm="RouteRanker""#]
            )
        case is TrackerMessageEncrypted:
            self = .unprocessable(
                "this message is encrypted, and the server does not hold the app's key: turn encryption off in the app")
        case is NotRouteOwner:
            self = .forbidden("only the route's owner may do this")
        case is SegmentNotFound:
            self = .segmentNotFound
        case is NotSegmentOwner:
            self = .forbidden("only the segment's owner may do this")
        case let error as VersionConflict:
            self = .conflict(error.description)
        case is InvalidListPosition:
            self = .invalid("'cursor' is not a cursor of this list", field: "cursor")
        case let error as RouteTooLongToCompare:
            self = .unprocessable(
                "routes longer than \(HumanFormat.fixed(error.limitM / 1000, decimals: 0)) km cannot be compared; this one is too long",
                details: ["max_length_m": .int(error.limitM.clampedInt(in: 0...Int.max))])
        case let error as ComparisonTooLarge:
            self = .unprocessable(
                "the \(error.candidates) candidate routes are too long and too close together to compare in one "
                    + "request; use a smaller max_m",
                details: ["candidates": .int(error.candidates)])
        case let error as CostlyWork.Busy:
            self = .tooManyRequests(
                "you have \(error.perUser) costly requests (comparisons, pictures) in progress; "
                    + "send this one again when one of them is answered",
                retryAfterSeconds: CostlyWork.retryAfterSeconds)
        case let error as PointLimitExceeded:
            self = .payloadTooLarge("a route may hold at most \(error.limit) points")
        case let error as StatsNotFinite:
            self = .invalid(error.description, field: "points")
        case let error as AnnotationLimitExceeded:
            self = .payloadTooLarge("a route may hold at most \(error.limit) annotations")
        case is HTTPParserError:
            // NIO's parser gave up in the middle of a body (a bad chunk size): the client's mistake.
            self = .invalid("the request is not valid HTTP/1.1 (its body's framing is broken)", field: "body")
        case let error where StorageFailure(error) == .unavailable:
            self = .unavailable
        case let error where StorageFailure(error) == .overloaded:
            self = .overloaded
        case is CancellationError:
            self = .clientClosed
        case let error as HTTPError where error.status == .contentTooLarge:
            self = .payloadTooLarge()
        case let error as HTTPError where error.status == .notFound:
            self = .notFound()
        case let error as HTTPError where error.status.code < 500:
            self = APIError(error.status, "invalid_request", error.body ?? error.status.reasonPhrase)
        case let error as DecodingError:
            self = APIError(decoding: error)
        default:
            self = .internal
        }
    }

    /// Turns a `JSONDecoder` failure into a message that names the field and what was expected.
    init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath, key)
            self = .invalid("the field '\(field)' is required", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            self = .invalid("the field '\(field)' must be \(Self.describe(type))", field: field)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            self = .invalid("the body is not valid JSON" + (reason.map { ": \($0)" } ?? ""))
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            self = .invalid("the field '\(field)' is invalid: \(context.debugDescription)", field: field)
        @unknown default:
            self = .invalid("the body could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        default: "of a different type"
        }
    }
}

extension APIError {
    /// The error object (`{"code","message",…}`) as JSON text: what an import records for a file
    /// that failed, the same object its upload would have answered.
    var objectJSON: String {
        var fields: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        fields.merge(details) { current, _ in current }
        let data = (try? JSONEncoder.api.encode(JSONValue.object(fields))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension APIError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        if let page {
            var response = try page.response(from: request, context: context)
            response.status = status
            return response
        }
        var fields: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        fields.merge(details) { current, _ in current }
        let body = try JSONEncoder.api.encode(["error": JSONValue.object(fields)])
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
