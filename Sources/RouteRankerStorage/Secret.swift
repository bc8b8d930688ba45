import Crypto
import Foundation
import RouteRankerModels

/// Bearer tokens and link secrets: 32 random bytes, base64url without padding, stored only as
/// their SHA-256 digest.
package enum Secret {
    /// A new secret: 256 bits from the system's cryptographic generator.
    package static func generate() -> String {
        let key = SymmetricKey(size: .bits256)
        return key.withUnsafeBytes { Base64URL.encode($0) }
    }

    /// The SHA-256 digest that the database keeps in place of `secret`.
    package static func hash(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Compares a presented secret with a stored digest in constant time (swift-crypto's digest
    /// equality), never with `String ==`, which compares Unicode-canonically and stops early.
    package static func matches(_ secret: String, storedHash: Data) -> Bool {
        SHA256.hash(data: Data(secret.utf8)) == storedHash
    }
}
