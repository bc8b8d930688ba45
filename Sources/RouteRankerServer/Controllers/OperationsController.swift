import Foundation
import Hummingbird
import Prometheus
import RouteRankerModels
import RouteRankerStorage

/// Health, readiness, metrics and the API description.
struct OperationsController: Sendable {
    let health: DatabaseHealth
    /// The OpenAPI description, read once at start-up.
    let openAPIDocument: [UInt8]
    let registry: PrometheusCollectorRegistry

    /// `{"status": …}`, written directly: load balancers and orchestrators ask for it all day.
    struct Status: APIResponse, JSONWritable {
        var status: String

        func writeJSON(to w: inout JSONWriter) {
            w.raw("{")
            w.key("status")
            w.string(status)
            w.raw("}")
        }
    }

    /// `GET /healthz`: the process runs. Touches nothing else, so it answers instantly.
    func health(_ request: Request, _ context: AppRequestContext) async throws -> Status {
        Status(status: "ok")
    }

    /// `GET /readyz`: `200` when the database answers a ping, else `503`.
    func ready(_ request: Request, _ context: AppRequestContext) async throws -> Status {
        do {
            try await health.check()
        } catch {
            throw APIError.unavailable
        }
        return Status(status: "ready")
    }

    /// `GET /metrics`: Prometheus text exposition format.
    func metrics(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }

    /// `GET /openapi.yaml`: the OpenAPI 3.1 description kept in the repository.
    func openAPI(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: openAPIDocument)))
    }
}

/// The OpenAPI file bundled as a resource. A server without it is broken: it fails at start-up.
enum OpenAPIDocument {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "the bundled openapi.yaml resource could not be read" }
    }

    static func load() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { throw Missing() }
        return Array(try Data(contentsOf: url))
    }
}
