import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// The download of a route as one reader sees it, in the format `?format=` asks for, streamed
/// chunk by chunk, with an `ETag` that names the route version, the owner's zones version (for
/// readers other than the owner) and the format; `304` when `If-None-Match` names it.
struct RouteDownload: ResponseGenerator {
    var route: StoredRoute
    var lens: RouteViewer.Lens
    /// The route's committed points, in order.
    var points: @Sendable () -> AsyncThrowingStream<[TrackPoint], any Error>

    /// The size at which gathered output is written: a bucket's worth of points in any format, so
    /// memory stays bounded by about one bucket whatever the route's length.
    private static let flushAt = 64 * 1024

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
            // The pieces gather into writes of at least `flushAt` bytes (each write is a trip to
            // the connection's event loop): a route with no full bucket goes out in one.
            var writer = writer
            var pending = Array(writer.header().utf8)
            for try await chunk in chunks {
                let visible = lens.zones.isEmpty ? chunk : chunk.filter { !lens.hides($0) }
                writer.chunk(visible, into: &pending)
                if pending.count >= Self.flushAt {
                    try await bodyWriter.write(ByteBuffer(bytes: pending))
                    pending.removeAll(keepingCapacity: true)
                }
            }
            pending.append(contentsOf: writer.footer().utf8)
            try await bodyWriter.write(ByteBuffer(bytes: pending))
            try await bodyWriter.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
