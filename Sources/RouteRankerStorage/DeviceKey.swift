import RouteRankerModels

/// A device key names its device: `<device id>~<secret>` (the id is 24 hex digits, the secret 256
/// random bits in base64url; `~` is in neither). As with bearer tokens (`UserToken`), the whole
/// key's SHA-256 is what `devices` keeps, so the id part only says which document to compare with:
/// every tracker message's first read is then a read by `_id`, which shares one query with the
/// reads of concurrent messages (`MongoCollection.documents(ids:)`), instead of a query of its own
/// by the digest's index.
///
/// Keys issued before keys named their device have no `~`; they are found by their digest, as
/// before, until their device's key is replaced.
package enum DeviceKey: Equatable {
    /// A key that names the device `id`.
    case named(id: String)
    /// A key from before: look it up by its digest.
    case unnamed
    /// A `~` with no plausible device id before it: no device can have it.
    case malformed

    /// A new key for the device `id`.
    package static func make(for id: String) -> String { "\(id)~\(Secret.generate())" }

    /// What `key` says about its device.
    package init(_ key: String) {
        guard let tilde = key.utf8.firstIndex(of: UInt8(ascii: "~")) else {
            self = .unnamed
            return
        }
        let id = String(key[..<tilde])
        let secret = key[key.index(after: tilde)...]
        guard DeviceID.isPlausible(id), !secret.isEmpty, !secret.contains("~") else {
            self = .malformed
            return
        }
        self = .named(id: id)
    }
}
