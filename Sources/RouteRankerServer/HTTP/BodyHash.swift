import Crypto
import Foundation
import Hummingbird
import RouteRankerModels

/// A running SHA-256 of what makes two create requests "the same" for `Idempotency-Key`: content
/// type, query and body.
struct BodyHash {
    private var hasher = SHA256()

    init(_ request: Request) {
        hasher.update(data: Data((request.mediaType ?? "").utf8))
        hasher.update(data: Data([0]))
        hasher.update(data: Data((request.uri.query ?? "").utf8))
        hasher.update(data: Data([0]))
    }

    mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
    }

    func finalize() -> String { Hex.string(hasher.finalize()) }
}

extension Request {
    /// The `Idempotency-Key` header as sent: 1–128 characters, else `400`; `nil` when absent.
    func idempotencyKey() throws -> String? {
        guard let field = headers.first(where: { $0.name.canonicalName == "idempotency-key" }) else { return nil }
        guard (1...128).contains(field.value.count) else {
            throw APIError.invalid("'Idempotency-Key' must be 1–128 characters", field: "Idempotency-Key")
        }
        return field.value
    }
}
