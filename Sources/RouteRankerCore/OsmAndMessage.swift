import Foundation

/// One point in the OsmAnd protocol, as Traccar Client and GPSLogger's custom URL send it:
/// parameters in the query string and/or an `application/x-www-form-urlencoded` body
/// (traccar/traccar-client-android `app/src/main/java/org/traccar/client/ProtocolFormatter.kt`:
/// `id`, `timestamp` in s, `lat`, `lon`, `speed`, `bearing`, `altitude`, `accuracy`, `batt`), or
/// Traccar Client 9.x's JSON body (`{"device_id", "location": {"timestamp", "coords": {…}}}`).
public enum OsmAndMessage {
    /// The device key of a parameter message: `id`, else `deviceid`.
    public static func key(_ parameter: (String) -> String?) -> String? {
        parameter("id") ?? parameter("deviceid")
    }

    /// The report of a parameter message: `lat`/`lon` (or `location=lat,lon`), `timestamp` in any
    /// ``TrackerTime`` form, `altitude` → `ele`, `accuracy` → `acc`; everything else ignored. No
    /// position at all is a heartbeat (`nothing`); a position or time that cannot be read is
    /// `unusable`.
    public static func report(_ parameter: (String) -> String?) -> TrackerReport {
        var lat = parameter("lat")
        var lon = parameter("lon")
        if lat == nil, lon == nil, let location = parameter("location") {
            let parts = location.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            lat = parts.first.map(String.init)
            lon = parts.count > 1 ? String(parts[1]) : nil
        }
        guard lat != nil || lon != nil else { return .nothing }
        return .location(
            lat: lat.flatMap(decimal), lon: lon.flatMap(decimal),
            t: parameter("timestamp").flatMap(TrackerTime.seconds),
            ele: parameter("altitude").flatMap(decimal), acc: parameter("accuracy").flatMap(decimal))
    }

    /// Reads Traccar Client's JSON form: the key (`device_id`) and the report. A body that is not
    /// one RFC 8259 JSON object throws ``FormatError`` (`400`); a missing `location` or `coords`
    /// is a heartbeat.
    public static func readJSON(_ body: some Collection<UInt8>) throws -> (key: String?, report: TrackerReport) {
        let bytes = Array(body)
        try StrictJSON.validate(bytes)
        let message: Raw
        do {
            message = try JSONDecoder().decode(Raw.self, from: Data(bytes))
        } catch {
            throw FormatError.body("an OsmAnd JSON message is a JSON object")
        }
        guard let location = message.location, let coords = location.coords,
            coords.latitude != nil || coords.longitude != nil
        else { return (message.deviceID, .nothing) }
        return (
            message.deviceID,
            .location(
                lat: coords.latitude, lon: coords.longitude, t: location.timestamp, ele: coords.altitude,
                acc: coords.accuracy)
        )
    }

    /// A plain decimal number (`52.5`, `-13.25`, `1e3`), never `nan`, `inf` or hex.
    static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
            trimmed.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || "+-.eE".utf8.contains($0) }),
            let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }

    private struct Raw: Decodable {
        var deviceID: String?
        var location: Location?

        private enum Key: String, CodingKey { case deviceID = "device_id", location }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            deviceID = (try? c.decodeIfPresent(String.self, forKey: .deviceID)) ?? nil
            location = (try? c.decodeIfPresent(Location.self, forKey: .location)) ?? nil
        }
    }

    private struct Location: Decodable {
        var timestamp: Double?
        var coords: Coords?

        private enum Key: String, CodingKey { case timestamp, coords }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            if let text = (try? c.decodeIfPresent(String.self, forKey: .timestamp)) ?? nil {
                timestamp = TrackerTime.seconds(text)
            } else {
                timestamp = ((try? c.decodeIfPresent(Double.self, forKey: .timestamp)) ?? nil).map(TrackerTime.number)
            }
            coords = (try? c.decodeIfPresent(Coords.self, forKey: .coords)) ?? nil
        }
    }

    private struct Coords: Decodable {
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var accuracy: Double?

        private enum Key: String, CodingKey { case latitude, longitude, altitude, accuracy }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            func number(_ key: Key) -> Double? { (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil }
            latitude = number(.latitude)
            longitude = number(.longitude)
            altitude = number(.altitude)
            accuracy = number(.accuracy)
        }
    }
}
