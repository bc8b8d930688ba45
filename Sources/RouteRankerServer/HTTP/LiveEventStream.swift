import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RouteRankerCore

/// A live route as Server-Sent Events (`text/event-stream`): each `LiveEvent` becomes an SSE event
/// (`event: points` with `id:`, `event: finished`, `event: gone`, or a `: keep-alive` comment).
///
/// A follower that stops reading is cut off rather than buffered: once its socket buffers are full a
/// write waits, and a write still waiting after `stallLimit` closes the connection. So the server
/// holds, per follower, at most one event (≤ 1000 points) beyond the socket buffers plus the
/// coalesced news of its mailbox, whatever the writer does; the client resumes with `Last-Event-ID`.
struct LiveEventStream: ResponseGenerator {
    /// How long one event may wait for a follower's connection to take it.
    static let stallLimit: TimeAmount = .seconds(10)

    /// The connection, to close when a write stalls (nil where there is none, in router tests).
    let channel: (any Channel)?
    /// Runs the follower, handing each event to the closure.
    let follow: @Sendable ((LiveEvent) async throws -> Void) async throws -> Void

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        let channel = self.channel
        let follow = self.follow
        let body = ResponseBody { writer in
            try await follow { event in
                let timer = channel?.eventLoop.scheduleTask(in: Self.stallLimit) { channel?.close(promise: nil) }
                defer { timer?.cancel() }
                try await writer.write(try Self.encode(event))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// One event in SSE form. Data is one line of JSON; `gone` carries an empty `data:` line so that
    /// browsers' `EventSource` dispatches it (an event without data is dropped by the SSE parser).
    /// A value that cannot be encoded (a bug, never the client's doing) throws: the stream ends
    /// and the failure is logged with the request, rather than an empty `data:` line going out.
    static func encode(_ event: LiveEvent) throws -> ByteBuffer {
        switch event {
        case .points(let id, let from, let points, let stats):
            let data = try JSONEncoder.api.encode(LivePoints(from: from, points: points, stats: stats))
            return ByteBuffer(string: "id: \(id)\nevent: points\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
        case .finished(let summary):
            let data = try JSONEncoder.api.encode(summary)
            return ByteBuffer(string: "event: finished\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
        case .gone:
            return ByteBuffer(string: "event: gone\ndata:\n\n")
        case .keepAlive:
            return ByteBuffer(string: ": keep-alive\n\n")
        }
    }
}

/// The `data` of a `points` event.
struct LivePoints: Encodable {
    var from: Int
    var points: [TrackPoint]
    var stats: RouteStats
}
