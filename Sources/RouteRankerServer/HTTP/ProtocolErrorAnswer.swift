import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The HTTP layer's own errors in the contract's envelope. When NIO's parser gives up on a
/// request (a header over its 80 KiB limit, a request line as long, bytes that are not HTTP/1.1),
/// Hummingbird answers `400` with `Content-Length: 0` and closes. This handler, between the HTTP
/// codec and the application, notes the parser's error as it passes and turns exactly that bare
/// answer into `431 header_fields_too_large`, `414 uri_too_long` or `400 invalid_request` with
/// `{"error":{"code","message"}}` and `nosniff`; Hummingbird keeps closing the connection its
/// own way (half-close, then wait for the client), so the answer is not lost to a reset.
///
/// NIO counts the request line against the same limit as a header line and does not say which
/// one overflowed, so a small ``RequestLineWatch`` at the front of the pipeline finds the line
/// that crossed the limit: `METHOD SP` is a request line (`414`), `name:` a header (`431`).
final class ProtocolErrorAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let watch = RequestLineWatch()
    /// The answer for the parser error seen, until Hummingbird's bare `400` for it is written.
    private var pending: APIError?

    func handlerAdded(context: ChannelHandlerContext) {
        // Before the HTTP decoder, to see the raw bytes it is about to parse.
        try? context.pipeline.syncOperations.addHandler(watch, position: .first)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Body bytes need no watching (and cost nothing to skip); a head's lines do.
        switch unwrapInboundIn(data) {
        case .head: watch.inBody = true
        case .end: watch.inBody = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if pending == nil, let parseError = error as? HTTPParserError {
            pending = Self.answer(for: parseError, inRequestLine: watch.lineIsRequestLine)
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let answer = pending, case .head(let head) = unwrapOutboundIn(data), head.status == .badRequest,
            head.headerFields[.contentLength] == "0"
        {
            pending = nil
            let body = ByteBuffer(string: #"{"error":"# + answer.objectJSON + "}")
            let fields: HTTPFields = [
                .connection: "close", .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes), .xContentTypeOptions: "nosniff",
            ]
            context.write(
                wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }

    static func answer(for error: HTTPParserError, inRequestLine: Bool) -> APIError {
        switch error {
        case .headerOverflow where inRequestLine:
            APIError(
                .uriTooLong, "uri_too_long", "the request's path and query are longer than the server reads (80 KiB)")
        case .headerOverflow:
            APIError(
                .requestHeaderFieldsTooLarge, "header_fields_too_large",
                "the request's headers are larger than the server reads (80 KiB, 1000 fields)")
        default:
            APIError(.badRequest, "invalid_request", "the request is not valid HTTP/1.1")
        }
    }
}

/// Finds the line of a request head in which NIO's parser runs out of room: it counts the head's
/// bytes (outside bodies) and keeps the first 16 bytes of the line that crosses
/// ``headLimit``; see ``ProtocolErrorAnswer``.
final class RequestLineWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// NIO's limit on a head (its request line and header lines together), as Hummingbird
    /// configures it (`HTTP1Channel.Configuration.DecoderConfiguration`: 80 KiB).
    static let headLimit = 80 * 1024

    /// Set by ``ProtocolErrorAnswer`` between a request's head and its end (same event loop).
    var inBody = false {
        didSet { if !inBody { headBytes = 0; line = []; overflowLine = nil } }
    }
    private var headBytes = 0
    private var line: [UInt8] = []
    private var overflowLine: [UInt8]?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a head's bytes are looked at, and only until the limit is crossed: a body, or the
        // rest of an oversized head, costs nothing here.
        if !inBody, overflowLine == nil {
            for byte in unwrapInboundIn(data).readableBytesView {
                headBytes += 1
                if byte == UInt8(ascii: "\n") {
                    line.removeAll(keepingCapacity: true)
                } else if line.count < 16 {
                    line.append(byte)
                }
                if headBytes > Self.headLimit {
                    overflowLine = line
                    break
                }
            }
        }
        context.fireChannelRead(data)
    }

    /// Whether the line that crossed the limit looks like a request line (`token SP`) rather than
    /// a header line (`token ":"`): a header name holds no space.
    var lineIsRequestLine: Bool {
        guard let start = overflowLine, let space = start.firstIndex(of: UInt8(ascii: " ")), space > 0 else {
            return false
        }
        return !start[..<space].contains(UInt8(ascii: ":"))
    }
}
