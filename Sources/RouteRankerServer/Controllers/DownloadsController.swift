import Foundation
import Hummingbird
import RouteRankerCore

/// `GET /v1/routes/{id}/points`: the download, in any format, streamed bucket by bucket.
struct DownloadsController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let buckets: PointBuckets
    let viewer: RouteViewer

    func points(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let user = try await auth.user(request)
        let route = try await visibility.readable(try context.parameters.require("id"), by: user)
        return try await download(
            route, lens: try await viewer.lens(owner: route.owner, viewer: user.id), request: request)
    }

    /// The download of `route` through `lens`, as `?format=` asks, with an `ETag` (which names the
    /// route version, the owner's zones version for other readers, and the format); `304` when
    /// `If-None-Match` names it.
    func download(_ route: RouteRecord, lens: RouteViewer.Lens, request: Request) async throws -> Response {
        let raw = request.uri.queryParameters["format"].map(String.init) ?? "json"
        guard let format = DownloadFormat(rawValue: raw) else {
            throw APIError.invalid("'format' must be one of json, ndjson, text, gpx, geojson, csv", field: "format")
        }
        let etag = ETag(route.id, String(route.version), lens.tag, format.rawValue)
        var headers: HTTPFields = [.eTag: etag.value, .cacheControl: "private, no-cache"]
        guard !etag.matches(request) else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = format.contentType + "; charset=utf-8"
        let annotations = route.annotations.filter { !lens.hides(TrackPoint(lat: $0.lat, lon: $0.lon, t: 1)) }
        let points = buckets.read(route: route.id, count: route.pointCount)
        let writer = DownloadWriter(format: format, id: route.id, name: route.name, annotations: annotations)
        let body = ResponseBody { bodyWriter in
            var writer = writer
            try await bodyWriter.write(ByteBuffer(string: writer.header()))
            for try await chunk in points {
                let visible = lens.zones.isEmpty ? chunk : chunk.filter { !lens.hides($0) }
                try await bodyWriter.write(ByteBuffer(string: writer.chunk(visible)))
            }
            try await bodyWriter.write(ByteBuffer(string: writer.footer()))
            try await bodyWriter.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
