import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// `GET` and `PUT /v1/users/me/privacy_zones`.
struct PrivacyZonesController: Sendable {
    let auth: Authenticator
    let users: any UserStore

    func get(_ request: Request, _ context: AppRequestContext) async throws -> PrivacyZoneList {
        PrivacyZoneList(try await auth.user(request).privacyZones)
    }

    /// Replaces all zones; an invalid list is `400` and changes nothing. Applies to later reads at once.
    func put(_ request: Request, _ context: AppRequestContext) async throws -> PrivacyZoneList {
        let user = try await auth.user(request)
        let list = try await request.decodeJSON(PrivacyZoneList.self)
        try await users.replacePrivacyZones(id: user.id, with: list.zones)
        return list
    }
}
