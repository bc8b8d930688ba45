import Hummingbird
import RouteRankerModels

/// Leaving: `DELETE /v1/users/me?confirm=<my id>` (API.md "Moving in, moving out, leaving").
struct AccountController: Sendable {
    let auth: Authenticator
    let removal: AccountRemoval

    /// `204` once the account and all it owns are gone; `confirm` must be my id (`400`), so that a
    /// stray request cannot delete an account. The token stops working before anything else goes;
    /// if this request fails half-way, the deletion completes later without another request.
    func leave(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let user = try await auth.user(request)
        guard request.query["confirm"] == user.id else {
            throw InvalidInput(
                "'confirm' must be your user id, to confirm that the account is to be deleted", field: "confirm")
        }
        try await removal.leave(user.id)
        return NoContent()
    }
}
