import Foundation
import Hummingbird
import NIOCore
import RouteRankerCore

/// The tracker apps' endpoints: one message, one point at most, answered so that the phone's
/// queue keeps moving (API.md, "Answers keep the phone's queue moving").
struct TrackController: Sendable {
    /// Tracker bodies are small: one message each. Exactly 64 KiB is taken.
    static let maxBodyBytes = 64 * 1024

    let devices: DeviceAuthenticator
    let recorder: DeviceRecorder

    /// `POST /v1/track/owntracks`: one OwnTracks message (HTTP mode) → `200 []`. Credentials:
    /// HTTP Basic, the owner's user id and the device key.
    func owntracks(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let credentials = BasicCredentials(header: request.headers[.authorization])
        let device = try await devices.device(key: credentials?.password, user: credentials?.user ?? "")
        let body = try await Self.body(request)
        try await recorder.record(try OwnTracksMessage.read(body.readableBytesView), device: device)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "[]")))
    }

    /// `GET` or `POST /v1/track/osmand`: one point in the OsmAnd protocol → `200`, empty body.
    /// Parameters from the query and/or a form body (the body wins), or Traccar Client's JSON.
    func osmand(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await Self.body(request)
        let query = request.query
        let key: String?
        let report: TrackerReport
        if body.readableBytes == 0 {
            key = OsmAndMessage.key { query[$0] }
            report = OsmAndMessage.report { query[$0] }
        } else {
            switch request.mediaType {
            case "application/json":
                let message = try OsmAndMessage.readJSON(body.readableBytesView)
                key = message.key ?? OsmAndMessage.key { query[$0] }
                report = message.report
            case nil, "application/x-www-form-urlencoded":
                let form = QueryString(String(buffer: body))
                key = OsmAndMessage.key { form[$0] } ?? OsmAndMessage.key { query[$0] }
                report = OsmAndMessage.report { form[$0] ?? query[$0] }
            default:
                throw APIError.invalid(
                    "an OsmAnd body is application/x-www-form-urlencoded or Traccar Client's application/json",
                    field: "body")
            }
        }
        let device = try await devices.device(key: key)
        try await recorder.record(report, device: device)
        return Response(status: .ok)
    }

    /// The body, up to 64 KiB (`413` past it).
    private static func body(_ request: Request) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(limit: maxBodyBytes)
        } catch let error as APIError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("a tracker message may have at most 65536 bytes (64 KiB)")
        }
    }
}
