import Foundation
import HTTPTypes
import Hummingbird
import RouteRankerModels

/// A value a handler returns that becomes a JSON response (`200` unless wrapped).
protocol APIResponse: Encodable, ResponseGenerator {}

extension APIResponse {
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse(status: .ok, body: self).response(from: request, context: context)
    }
}

/// A JSON body with an explicit status and headers, e.g. `201 Created`.
struct JSONResponse<Body: Encodable>: ResponseGenerator {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var body: Body

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let buffer: ByteBuffer
        if let direct = body as? any JSONWritable {
            var writer = JSONWriter()
            try direct.writeJSON(to: &writer)
            buffer = ByteBuffer(bytes: writer.bytes)
        } else {
            buffer = ByteBuffer(bytes: try JSONEncoder.api.encode(body))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}

extension JSONResponse {
    static func created(_ body: Body) -> JSONResponse { JSONResponse(status: .created, body: body) }
}

/// `204 No Content`.
struct NoContent: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .noContent)
    }
}

/// The list envelope every list endpoint uses: `{"items", "next", "total"}`.
struct Page<Item: Encodable>: APIResponse {
    var items: [Item]
    var next: String?
    var total: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)  // an explicit null on the last page
        try container.encode(total, forKey: .total)
    }

    private enum CodingKeys: String, CodingKey { case items, next, total }
}

extension UserView: APIResponse {}
extension PrivacyZoneList: APIResponse {}
extension TokenView: APIResponse {}
