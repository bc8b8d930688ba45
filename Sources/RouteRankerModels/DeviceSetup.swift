import Foundation

/// The tracker apps a device records through, as `?app=`/`"app"` names them.
package enum TrackerApp: String, CaseIterable, Sendable {
    case owntracks, osmand, gpslogger

    /// The app's own name, for people.
    package var title: String {
        switch self {
        case .owntracks: "OwnTracks"
        case .osmand: "Traccar Client"
        case .gpslogger: "GPSLogger"
        }
    }
}

/// `POST /v1/devices/{id}/qr.svg` body: which app, and the device's current key (which the
/// server cannot show again: it keeps only its hash).
package struct DeviceSetupRequest: Decodable {
    package var app: String
    package var key: String

    package init(app: String, key: String) {
        self.app = app
        self.key = key
    }
}

/// What a device's setup QR code holds for each app: what that app takes from a scan, with the key
/// in it, so that nothing is left to type.
package enum DeviceSetupCode {
    /// - OwnTracks: its configuration link, `owntracks:///config?inline=` and the base64 of a
    ///   `_type: configuration` (HTTP mode, the URL, the owner's id as user name, the key as
    ///   password), which the app imports when the code is opened. Its Device ID and Tracker ID stay
    ///   the phone's own.
    /// - Traccar Client: the OsmAnd address with `?id=` the key; its QR code scanner takes the
    ///   address (without the query) as Server URL and `id` as Device identifier.
    /// - GPSLogger: the custom URL template with the key, to paste as Log to custom URL's URL.
    package static func text(app: TrackerApp, ingest: IngestAddresses, owner: String, key: String) -> String {
        switch app {
        case .owntracks:
            let configuration = OwnTracksConfiguration(url: ingest.owntracks, username: owner, password: key)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // The encoding of a struct of strings, a number and a Boolean cannot fail.
            let json = (try? encoder.encode(configuration)) ?? Data("{}".utf8)
            return "owntracks:///config?inline=" + percentEncoded(json.base64EncodedString())
        case .osmand:
            return ingest.osmand + "?id=" + percentEncoded(key)
        case .gpslogger:
            return ingest.gpslogger
        }
    }

    /// `text` with every byte but RFC 3986's unreserved characters percent-encoded: base64's `+`
    /// would otherwise read as a space in a query, and `/` and `=` are not everywhere taken as data.
    package static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += byte < 16 ? "%0" + hex : "%" + hex
            }
        }
        return out
    }
}

/// The settings an OwnTracks configuration (`.otrc`) sets: HTTP mode (3), the endpoint, and HTTP
/// Basic credentials.
package struct OwnTracksConfiguration: Codable, Equatable {
    package var type = "configuration"
    package var mode = 3
    package var url: String
    package var auth = true
    package var username: String
    package var password: String

    package init(url: String, username: String, password: String) {
        self.url = url
        self.username = username
        self.password = password
    }

    private enum CodingKeys: String, CodingKey {
        case type = "_type", mode, url, auth, username, password
    }
}
