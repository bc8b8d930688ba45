import Hummingbird

/// `GET /v1/routes/{id}/similar`: the routes visible to me that follow the same path in the same
/// direction, ranked by duration.
struct SimilarController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let similar: SimilarRoutes

    struct Result: APIResponse {
        var items: [SimilarRoute]
    }

    func similar(_ request: Request, _ context: AppRequestContext) async throws -> Result {
        let user = try await auth.user(request)
        let route = try await visibility.readable(try context.parameters.require("id"), by: user)
        var maxM: Double?
        if let raw = request.query["max_m"] {
            guard let value = Double(raw) else {
                throw APIError.invalid("'max_m' must be a number", field: "max_m")
            }
            maxM = value
        }
        let bound = try SimilarRoutes.validMaxM(maxM)
        return Result(items: SimilarRoutes.ranked(try await similar.matches(of: route, for: user, maxM: bound)))
    }
}
