import Foundation

/// One OwnTracks message in HTTP mode: a JSON object whose `_type` says what it is. Formats:
/// owntracks/booklet `docs/tech/json.md` (the `_type`s and the location members) and the Android
/// app's `MessageLocation` (owntracks/android, `project/app/src/main/java/org/owntracks/android/
/// model/messages/MessageLocation.kt`).
public enum OwnTracksMessage {
    /// Reads a request body. An empty body (OwnTracks sends one for a deleted friend) and every
    /// `_type` but `location` say nothing to record; `location` gives a point, `t` = `tst`,
    /// `ele` = `alt`, `acc` = `acc`, every other member ignored. `encrypted` throws
    /// ``TrackerMessageEncrypted``; a body that is not one RFC 8259 JSON object with a string
    /// `_type` throws ``FormatError`` (not the protocol: `400`).
    public static func read(_ body: some Collection<UInt8>) throws -> TrackerReport {
        let bytes = Array(body)
        if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }) { return .nothing }
        try StrictJSON.validate(bytes)
        let message: Raw
        do {
            message = try JSONDecoder().decode(Raw.self, from: Data(bytes))
        } catch {
            throw FormatError.body("an OwnTracks message is a JSON object with a string '_type'")
        }
        switch message.type {
        case "location":
            return .location(lat: message.lat, lon: message.lon, t: message.tst, ele: message.alt, acc: message.acc)
        case "encrypted":
            throw TrackerMessageEncrypted()
        default:
            return .nothing
        }
    }

    private struct Raw: Decodable {
        var type: String
        var lat: Double?
        var lon: Double?
        var tst: Double?
        var alt: Double?
        var acc: Double?

        private enum Key: String, CodingKey {
            case type = "_type", lat, lon, tst, alt, acc
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            type = try c.decode(String.self, forKey: .type)
            /// A member that is not a number (a string, a boolean, `null`, or too large for a
            /// `Double`) makes the point unusable, never the message malformed: the phone's queue
            /// must move on.
            func number(_ key: Key) -> Double? { (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil }
            lat = number(.lat)
            lon = number(.lon)
            tst = number(.tst)
            alt = number(.alt)
            acc = number(.acc)
        }
    }
}
