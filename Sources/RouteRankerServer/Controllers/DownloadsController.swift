import Hummingbird
import RouteRankerStorage

/// `GET /v1/routes/{id}/points`: the download, in any format, streamed bucket by bucket.
struct DownloadsController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let buckets: PointBuckets
    let viewer: RouteViewer

    func points(_ request: Request, _ context: AppRequestContext) async throws -> RouteDownload {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        let route = reading.route
        return RouteDownload(route: route, lens: reading.lenses.privacy) { [buckets] in buckets.read(route) }
    }
}
