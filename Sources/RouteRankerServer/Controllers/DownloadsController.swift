import Hummingbird

/// `GET /v1/routes/{id}/points`: the download, in any format, streamed bucket by bucket.
struct DownloadsController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let buckets: PointBuckets
    let viewer: RouteViewer

    func points(_ request: Request, _ context: AppRequestContext) async throws -> RouteDownload {
        let user = try await auth.user(request)
        let route = try await visibility.readable(try context.parameters.require("id"), by: user)
        let lens = try await viewer.lens(owner: route.owner, viewer: user.id)
        return RouteDownload(route: route, lens: lens) { [buckets] in buckets.read(route) }
    }
}
