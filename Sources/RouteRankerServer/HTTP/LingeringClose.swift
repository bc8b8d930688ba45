import NIOCore
import NIOHTTPTypes

/// Nginx's "lingering close" for early answers. When the server has answered a request that asked
/// for `Connection: close` before its body has all arrived (an early `401`, `404`, `413`, …),
/// Hummingbird stops reading and waits for the client to close; a client that writes its whole
/// body before it reads (Python `requests`, most libraries) then blocks on a full TCP window until
/// the idle timeout. This handler, placed between the HTTP codec and the application, instead
/// reads the rest of the body and throws it away — at most `maxBytes`, for at most `maxTime` — and
/// then closes the connection. Closing only once the client has sent everything (or the bounds are
/// hit) is what keeps the kernel from answering unread data with a reset that would destroy the
/// answer. Keep-alive requests need none of this: Hummingbird reads their rest itself.
final class LingeringClose: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let maxBytes = 64 * 1024 * 1024
    static let maxTime = TimeAmount.seconds(10)

    /// A request head was read and its end was not yet.
    private var requestOpen = false
    /// The open request asked for `Connection: close`.
    private var closeAfter = false
    /// The answer is complete; the rest of the request is read and dropped.
    private var discarding = false
    private var discarded = 0
    private var deadline: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard !discarding else {
            switch part {
            case .body(let buffer):
                discarded += buffer.readableBytes
                if discarded > Self.maxBytes { close(context) }
            case .end, .head:
                close(context)
            }
            return
        }
        switch part {
        case .head(let head):
            requestOpen = true
            closeAfter = head.headerFields[.connection]?.lowercased().contains("close") ?? false
        case .end:
            requestOpen = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // While discarding, nobody above asks for more: keep the socket drained ourselves.
        if discarding { context.read() } else { context.fireChannelReadComplete() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        if case .end = part, requestOpen, closeAfter, !discarding {
            discarding = true
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: Self.maxTime) {
                let (handler, context) = loopBound.value
                handler.close(context)
            }
            context.read()
        }
    }

    func read(context: ChannelHandlerContext) {
        context.read()
    }

    private func close(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.close(promise: nil)
    }
}
