import Hummingbird
import HummingbirdTesting
import Prometheus
import RouteRankerModels

@testable import RouteRankerServer

/// Runs `body` against the account's endpoints alone (`accountTable`), behind the app's own
/// middleware and error mapping, on users kept in memory: tests of request handling that need no
/// database. `users` is handed to `body` for assertions on what was stored.
func withAccountRouter(
    _ body: @Sendable (any TestClientProtocol, InMemoryUserStore) async throws -> Void
) async throws {
    let users = InMemoryUserStore()
    let auth = Authenticator(users: users)
    let endpoints = accountTable(
        UsersController(users: users, auth: auth, clock: .distinctMilliseconds()),
        PrivacyZonesController(auth: auth, users: users))
    let app = Application(router: makeRouter(endpoints, registry: PrometheusCollectorRegistry()))
    try await app.test(.router) { client in try await body(client, users) }
}
