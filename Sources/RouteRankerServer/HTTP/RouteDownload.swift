import Foundation
import Hummingbird
import RouteRankerCore

/// The download of a route as one reader sees it, in the format `?format=` asks for, streamed
/// chunk by chunk, with an `ETag` that names the route version, the owner's zones version (for
/// readers other than the owner) and the format; `304` when `If-None-Match` names it.
struct RouteDownload: ResponseGenerator {
    var route: RouteRecord
    var lens: RouteViewer.Lens
    /// The route's committed points, in order.
    var points: @Sendable () -> AsyncThrowingStream<[TrackPoint], any Error>

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let raw = request.query["format"] ?? "json"
        guard let format = DownloadFormat(rawValue: raw) else {
            throw APIError.invalid("'format' must be one of json, ndjson, text, gpx, geojson, csv", field: "format")
        }
        let etag = ETag(route.id, String(route.version), lens.tag, format.rawValue)
        var headers: HTTPFields = [.eTag: etag.value, .cacheControl: "private, no-cache"]
        guard !etag.matches(request) else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = format.contentType + "; charset=utf-8"
        let lens = lens
        let annotations = route.annotations.filter { !lens.hides(TrackPoint(lat: $0.lat, lon: $0.lon, t: 1)) }
        let chunks = points()
        let writer = DownloadWriter(format: format, id: route.id, name: route.name, annotations: annotations)
        let body = ResponseBody { bodyWriter in
            var writer = writer
            try await bodyWriter.write(ByteBuffer(string: writer.header()))
            for try await chunk in chunks {
                let visible = lens.zones.isEmpty ? chunk : chunk.filter { !lens.hides($0) }
                try await bodyWriter.write(ByteBuffer(string: writer.chunk(visible)))
            }
            try await bodyWriter.write(ByteBuffer(string: writer.footer()))
            try await bodyWriter.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
