import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite struct OperationsTests {
    @Test func healthReadinessAndOpenAPI() async throws {
        try await withApp { client in
            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(health.json["status"] as? String == "ok")

            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .ok)

            let spec = try await client.send(.get, "/openapi.yaml")
            #expect(spec.status == .ok)
            #expect(spec.text.hasPrefix("openapi: 3.1"))
            for path in ["/v1/users:", "/v1/users/me:", "/v1/users/me/token:", "/v1/friends:", "/readyz:"] {
                #expect(spec.text.contains(path), "\(path) is not described")
            }
        }
    }

    @Test func metricsCountRequestsByMethodRouteAndStatus() async throws {
        try await withApp { client in
            _ = try await client.send(.get, "/healthz")
            _ = try await client.send(.get, "/v1/users/me")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = metrics.text
            #expect(text.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
            #expect(text.contains(#"http_requests_total{method="GET",route="/v1/users/me",status="401"} 1"#))
            #expect(text.contains("http_request_duration_seconds_bucket"))
            // The same labels again count on the same series (the middleware keeps the metrics it made).
            _ = try await client.send(.get, "/healthz")
            _ = try await client.send(.get, "/healthz")
            let again = try await client.send(.get, "/metrics").text
            #expect(again.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 3"#))
            #expect(again.contains(#"http_request_duration_seconds_count{method="GET",route="/healthz"} 3"#))
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        try await withApp { client in
            let missing = try await client.send(.get, "/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")

            let wrong = try await client.send(.put, "/v1/users/me")
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.errorCode == "method_not_allowed")
            let allow = try #require(wrong.headers[.allow])
            #expect(allow.contains("GET") && allow.contains("PATCH") && allow.contains("DELETE"))
        }
    }
}
