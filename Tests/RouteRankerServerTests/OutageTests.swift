import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

/// The database going away: requests answer 503 with Retry-After within about 3 s, /healthz stays
/// instant, and service resumes on its own once the database is back.
@Suite(.serialized) struct OutageTests {
    @Test func serviceDegradesTo503AndRecovers() async throws {
        let database = try SecantusProcess()
        try await database.start()
        try await withApp(uri: database.uri) { client in
            let token = try await client.register("ada")
            #expect(try await client.send(.get, "/readyz").status == .ok)

            database.stop()

            let clock = ContinuousClock()
            var start = clock.now
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .serviceUnavailable)
            #expect(clock.now - start < .seconds(3.5))

            start = clock.now
            let me = try await client.send(.get, "/v1/users/me", token: token)
            #expect(me.status == .serviceUnavailable)
            #expect(me.errorCode == "unavailable")
            #expect(me.headers[.retryAfter] != nil)
            #expect(clock.now - start < .seconds(3.5))

            start = clock.now
            #expect(try await client.send(.get, "/healthz").status == .ok)
            #expect(clock.now - start < .seconds(0.5))

            try await database.start()
            var recovered = false
            for _ in 0..<500 where !recovered {
                recovered = try await client.send(.get, "/v1/users/me", token: token).status == .ok
                if !recovered { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(recovered, "service did not resume within 10 s of the database coming back")
            #expect(try await client.send(.get, "/readyz").status == .ok)
        }
    }
}
