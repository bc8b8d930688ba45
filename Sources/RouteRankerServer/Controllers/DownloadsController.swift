import Hummingbird

/// `GET /v1/routes/{id}/points`: the download, in any format, streamed bucket by bucket.
struct DownloadsController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let buckets: PointBuckets
    let viewer: RouteViewer

    func points(_ request: Request, _ context: AppRequestContext) async throws -> RouteDownload {
        let reading = try await visibility.reading(
            try context.parameters.require("id"), token: try auth.token(request), auth: auth, viewer: viewer)
        let route = reading.route
        return RouteDownload(route: route, lens: reading.lens) { [buckets] in buckets.read(route) }
    }
}
