import Foundation
import RouteRankerModels
import RouteRankerStorage

/// The `Authorization: Basic` credentials (RFC 7617): a user id and a password, as OwnTracks
/// sends them in HTTP mode.
struct BasicCredentials: Sendable, Equatable {
    /// The most bytes of an `Authorization` header read; ours need about 110.
    static let maxBytes = 1024

    var user: String
    var password: String

    /// The credentials of a `Basic` header (scheme matched case-insensitively), or nil when the
    /// header is absent, of another scheme, not base64, not UTF-8 or without a `:`.
    init?(header: String?) {
        guard let header, header.utf8.count <= Self.maxBytes else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        // Spaces and tabs around the token trimmed by hand: Foundation's `trimmingCharacters(in:)`
        // builds a character set per call, which was a tenth of a tracker message's own CPU.
        let token = parts.count == 2 ? Self.trimmed(parts[1]) : ""
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(token)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        user = String(text[..<colon])
        password = String(text[text.index(after: colon)...])
    }

    /// `text` without the spaces and horizontal tabs at either end.
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return text[first...last]
    }
}

/// Resolves a tracker app's device key to its device: looked up by the key's SHA-256 (indexed),
/// then compared in constant time.
struct DeviceAuthenticator: Sendable {
    /// Keys longer than this are not ours (ours have 43 characters).
    static let maxKeyBytes = 256

    let devices: DeviceRepository

    /// The device whose key is `key` (and, for OwnTracks, whose owner is `user`), else
    /// `TrackerUnauthorized` (`401`).
    func device(key: String?, user: String? = nil) async throws -> DeviceRecord {
        guard let key, !key.isEmpty, key.utf8.count <= Self.maxKeyBytes,
            let device = try await devices.find(key: key, linger: DeviceRecorder.linger),
            Secret.matches(key, storedHash: device.keyHash)
        else { throw TrackerUnauthorized(message: "the device key is missing or not valid") }
        if let user, user != device.owner {
            throw TrackerUnauthorized(message: "the user name must be the id of the device's owner")
        }
        return device
    }
}
