import Foundation
import RouteRankerCore

/// A phone that records through a tracker app, as stored in `devices`: its settings, the hash of
/// its key, its counters and the trip state (which route it records into, which it is closing).
struct DeviceRecord: Sendable, Equatable {
    var id: String
    var owner: String
    var name: String
    var activity: Activity
    var splitAfterS: Int
    var shareWith: [String]
    var createdAt: Date
    /// SHA-256 of the key; the key itself is never stored.
    var keyHash: Data
    var lastSeenAt: Date?
    var counts = DeviceCounts()
    /// The device's recording route: at most one, claimed by a version-guarded write of this
    /// document before the route document is created.
    var currentRoute: String?
    /// Routes taken off `currentRoute` whose finish and trip rule are not done yet: the durable
    /// to-do list that lets a finish survive a crash of the process doing it.
    var finishing: [String] = []
    /// The time of the device's last recorded point.
    var lastT: Double?
    /// When the idle sweep must look at this device (`nil`: nothing to do).
    var dueAt: Date?
    /// Deleted, with the finish of its route still to be done: it answers nothing any more.
    var deleted = false
    /// Bumped by every change of the settings, the key and the trip state (not by counters).
    var version = 0
}

/// How the messages a device sent were taken.
struct DeviceCounts: Sendable, Equatable, Codable {
    var received = 0
    var recorded = 0
    var duplicates = 0
    var dropped = 0
    var ignored = 0
}

/// How one message answered `200` counts (besides `received`).
enum TrackOutcome: String, Sendable {
    case recorded, duplicates, dropped, ignored
}

/// The rules for device settings, in one place.
enum DeviceRules {
    static let splitRange = 10...86_400
    static let defaultSplitAfterS = 600

    static func splitAfter(_ value: Int?) throws -> Int {
        guard let value else { return defaultSplitAfterS }
        guard splitRange.contains(value) else {
            throw InvalidInput("'split_after_s' must be an integer from 10 to 86400", field: "split_after_s")
        }
        return value
    }

    /// `"<device name> <YYYY-MM-DD HH:MM>"`, the UTC time of the route's first point.
    static func routeName(device: String, firstPointAt t: Double) -> String {
        let stamp = RFC3339.format(t.rounded(.down)).prefix(16).replacingOccurrences(of: "T", with: " ")
        return "\(device) \(stamp)"
    }
}

/// `POST /v1/devices` body.
struct CreateDeviceRequest: Decodable {
    var name: String
    var activity: String?
    var splitAfterS: Int?
    var shareWith: [String]?

    private enum CodingKeys: String, CodingKey {
        case name, activity, splitAfterS = "split_after_s", shareWith = "share_with"
    }
}

/// `PATCH /v1/devices/{id}` body: each field optional.
struct ChangeDeviceRequest: Decodable {
    var name: String?
    var activity: String?
    var splitAfterS: Int?
    var shareWith: [String]?

    private enum CodingKeys: String, CodingKey {
        case name, activity, splitAfterS = "split_after_s", shareWith = "share_with"
    }
}

/// A device as its owner sees it (never the key).
struct DeviceView: Encodable {
    var id: String
    var name: String
    var activity: Activity
    var splitAfterS: Int
    var shareWith: [String]
    var createdAt: Date
    var lastSeenAt: Date?
    var currentRoute: String?
    var counts: DeviceCounts

    init(_ device: DeviceRecord) {
        id = device.id
        name = device.name
        activity = device.activity
        splitAfterS = device.splitAfterS
        shareWith = device.shareWith
        createdAt = device.createdAt
        lastSeenAt = device.lastSeenAt
        currentRoute = device.currentRoute
        counts = device.counts
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, activity, splitAfterS, shareWith, createdAt, lastSeenAt, currentRoute, counts
    }

    /// `last_seen_at` and `current_route` are explicit `null`s when absent.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(activity, forKey: .activity)
        try c.encode(splitAfterS, forKey: .splitAfterS)
        try c.encode(shareWith, forKey: .shareWith)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastSeenAt, forKey: .lastSeenAt)
        try c.encode(currentRoute, forKey: .currentRoute)
        try c.encode(counts, forKey: .counts)
    }
}

/// The addresses to paste into each app: absolute, the GPSLogger one a `GET` template of the
/// OsmAnd address with the key and GPSLogger's placeholders.
struct IngestAddresses: Encodable {
    var owntracks: String
    var osmand: String
    var gpslogger: String

    init(base: String, key: String) {
        owntracks = base + "/v1/track/owntracks"
        osmand = base + "/v1/track/osmand"
        gpslogger = osmand + "?id=\(key)&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP&altitude=%ALT&accuracy=%ACC"
    }
}

/// `201` answer to `POST /v1/devices`: the device, its key (shown once) and the addresses.
struct CreatedDevice: Encodable {
    var device: DeviceView
    var key: String
    var ingest: IngestAddresses

    func encode(to encoder: any Encoder) throws {
        try device.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(key, forKey: .key)
        try c.encode(ingest, forKey: .ingest)
    }

    private enum Key: String, CodingKey { case key, ingest }
}

/// `200` answer to `POST /v1/devices/{id}/key`.
struct DeviceKeyView: Encodable {
    var key: String
    var ingest: IngestAddresses
}

/// The device is absent or not the caller's: the same `404` either way.
struct DeviceNotVisible: Error, Sendable {}

/// A tracker endpoint's credentials are missing or wrong (`401` with a Basic challenge).
struct TrackerUnauthorized: Error, Sendable {
    var message: String
}

/// Device ids are ObjectId hex strings, like route ids.
enum DeviceID {
    static func isPlausible(_ id: String) -> Bool { RouteID.isPlausible(id) }
}
