import Hummingbird

/// `GET /v1/routes/{id}/similar`: the routes visible to me that follow the same path in the same
/// direction, ranked by duration.
struct SimilarController: Sendable {
    let auth: Authenticator
    let access: RouteAccess
    let similar: SimilarRoutes
    let costly: CostlyWork

    struct Result: Encodable {
        var items: [SimilarRoute]
    }

    /// Matching costs up to seconds of CPU, so it stops when the client goes away: Hummingbird
    /// cancels the work once the connection's inbound side closes, and then closes the connection
    /// after the answer, which therefore says `Connection: close`. It runs as costly work (off the
    /// shared threads, at most two per user: `429` past that).
    func similar(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<Result> {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        let (user, route) = (reading.user, reading.route)
        var maxM: Double?
        if let raw = request.query["max_m"] {
            guard let value = Double(raw) else {
                throw APIError.invalid("'max_m' must be a number", field: "max_m")
            }
            maxM = value
        }
        let bound = try SimilarRoutes.validMaxM(maxM)
        let matches = try await request.body.consumeWithCancellationOnInboundClose { _ in
            try await costly.run(user: user.id) { try await similar.matches(of: route, for: user, maxM: bound) }
        }
        return JSONResponse(
            status: .ok, headers: [.connection: "close"], body: Result(items: SimilarRoutes.ranked(matches)))
    }
}
