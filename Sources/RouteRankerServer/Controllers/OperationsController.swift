import Foundation
import Hummingbird
import Mongo
import Prometheus

/// Health, readiness, metrics and the API description.
struct OperationsController: Sendable {
    let database: MongoDatabase
    let registry: PrometheusCollectorRegistry

    struct Status: APIResponse { var status: String }

    /// `GET /healthz`: the process runs. Touches nothing else, so it answers instantly.
    func health(_ request: Request, _ context: AppRequestContext) async throws -> Status {
        Status(status: "ok")
    }

    /// `GET /readyz`: `200` when the database answers a ping, else `503`.
    func ready(_ request: Request, _ context: AppRequestContext) async throws -> Status {
        do {
            try await database.ping()
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
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }
}

/// The OpenAPI file bundled as a resource, read once.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { return Array("openapi: 3.1.0\n# the bundled description could not be read\n".utf8) }
        return Array(data)
    }()
}
