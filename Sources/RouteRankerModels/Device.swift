import Foundation
import RouteRankerCore

/// A phone that records through a tracker app, as stored in `devices`: its settings, the hash of
/// its key, its counters and the trip state (which route it records into, which it is closing).
package struct DeviceRecord: Sendable, Equatable {
    package var id: String
    package var owner: String
    package var name: String
    package var activity: Activity
    package var splitAfterS: Int
    package var shareWith: [String]
    package var createdAt: Date
    /// SHA-256 of the key; the key itself is never stored.
    package var keyHash: Data
    package var lastSeenAt: Date?
    package var counts = DeviceCounts()
    /// The device's recording route: at most one, claimed by a version-guarded write of this
    /// document before the route document is created.
    package var currentRoute: String?
    /// Routes taken off `currentRoute` whose finish and trip rule are not done yet: the durable
    /// to-do list that lets a finish survive a crash of the process doing it.
    package var finishing: [String] = []
    /// The time of the device's last recorded point.
    package var lastT: Double?
    /// When the idle sweep must look at this device (`nil`: nothing to do).
    package var dueAt: Date?
    /// Deleted, with the finish of its route still to be done: it answers nothing any more.
    package var deleted = false
    /// Bumped by every change of the settings, the key and the trip state (not by counters).
    package var version = 0

    package init(
        id: String, owner: String, name: String, activity: Activity, splitAfterS: Int, shareWith: [String],
        createdAt: Date, keyHash: Data, lastSeenAt: Date? = nil, counts: DeviceCounts = DeviceCounts(),
        currentRoute: String? = nil, finishing: [String] = [], lastT: Double? = nil, dueAt: Date? = nil,
        deleted: Bool = false, version: Int = 0
    ) {
        self.id = id
        self.owner = owner
        self.name = name
        self.activity = activity
        self.splitAfterS = splitAfterS
        self.shareWith = shareWith
        self.createdAt = createdAt
        self.keyHash = keyHash
        self.lastSeenAt = lastSeenAt
        self.counts = counts
        self.currentRoute = currentRoute
        self.finishing = finishing
        self.lastT = lastT
        self.dueAt = dueAt
        self.deleted = deleted
        self.version = version
    }
}

/// How the messages a device sent were taken.
package struct DeviceCounts: Sendable, Equatable, Codable {
    package var received = 0
    package var recorded = 0
    package var duplicates = 0
    package var dropped = 0
    package var ignored = 0

    package init(received: Int = 0, recorded: Int = 0, duplicates: Int = 0, dropped: Int = 0, ignored: Int = 0) {
        self.received = received
        self.recorded = recorded
        self.duplicates = duplicates
        self.dropped = dropped
        self.ignored = ignored
    }
}

/// How one message answered `200` counts (besides `received`).
package enum TrackOutcome: String, Sendable {
    case recorded, duplicates, dropped, ignored
}

/// The rules for device settings, in one place.
package enum DeviceRules {
    package static let splitRange = 10...86_400
    package static let defaultSplitAfterS = 600

    package static func splitAfter(_ value: Int?) throws -> Int {
        guard let value else { return defaultSplitAfterS }
        guard splitRange.contains(value) else {
            throw InvalidInput("'split_after_s' must be an integer from 10 to 86400", field: "split_after_s")
        }
        return value
    }

    /// `"<device name> <YYYY-MM-DD HH:MM>"`, the UTC time of the route's first point.
    package static func routeName(device: String, firstPointAt t: Double) -> String {
        let stamp = RFC3339.format(t.rounded(.down)).prefix(16).replacingOccurrences(of: "T", with: " ")
        return "\(device) \(stamp)"
    }
}

/// `POST /v1/devices` body.
package struct CreateDeviceRequest: Decodable {
    package var name: String
    package var activity: String?
    package var splitAfterS: Int?
    package var shareWith: [String]?

    package init(name: String, activity: String? = nil, splitAfterS: Int? = nil, shareWith: [String]? = nil) {
        self.name = name
        self.activity = activity
        self.splitAfterS = splitAfterS
        self.shareWith = shareWith
    }

    private enum CodingKeys: String, CodingKey {
        case name, activity, splitAfterS = "split_after_s", shareWith = "share_with"
    }
}

/// `PATCH /v1/devices/{id}` body: each field optional.
package struct ChangeDeviceRequest: Decodable {
    package var name: String?
    package var activity: String?
    package var splitAfterS: Int?
    package var shareWith: [String]?

    package init(name: String? = nil, activity: String? = nil, splitAfterS: Int? = nil, shareWith: [String]? = nil) {
        self.name = name
        self.activity = activity
        self.splitAfterS = splitAfterS
        self.shareWith = shareWith
    }

    private enum CodingKeys: String, CodingKey {
        case name, activity, splitAfterS = "split_after_s", shareWith = "share_with"
    }
}

/// A device as its owner sees it (never the key).
package struct DeviceView: Encodable {
    package var id: String
    package var name: String
    package var activity: Activity
    package var splitAfterS: Int
    package var shareWith: [String]
    package var createdAt: Date
    package var lastSeenAt: Date?
    package var currentRoute: String?
    package var counts: DeviceCounts

    package init(_ device: DeviceRecord) {
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
    package func encode(to encoder: any Encoder) throws {
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
package struct IngestAddresses: Encodable {
    package var owntracks: String
    package var osmand: String
    package var gpslogger: String

    package init(base: String, key: String) {
        owntracks = base + "/v1/track/owntracks"
        osmand = base + "/v1/track/osmand"
        gpslogger = osmand + "?id=\(key)&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP&altitude=%ALT&accuracy=%ACC"
    }
}

/// `201` answer to `POST /v1/devices`: the device, its key (shown once) and the addresses.
package struct CreatedDevice: Encodable {
    package var device: DeviceView
    package var key: String
    package var ingest: IngestAddresses

    package init(device: DeviceView, key: String, ingest: IngestAddresses) {
        self.device = device
        self.key = key
        self.ingest = ingest
    }

    package func encode(to encoder: any Encoder) throws {
        try device.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(key, forKey: .key)
        try c.encode(ingest, forKey: .ingest)
    }

    private enum Key: String, CodingKey { case key, ingest }
}

/// `200` answer to `POST /v1/devices/{id}/key`.
package struct DeviceKeyView: Encodable {
    package var key: String
    package var ingest: IngestAddresses

    package init(key: String, ingest: IngestAddresses) {
        self.key = key
        self.ingest = ingest
    }
}

/// The device is absent or not the caller's: the same `404` either way.
package struct DeviceNotVisible: Error, Sendable {
    package init() {}
}

/// A tracker endpoint's credentials are missing or wrong (`401` with a Basic challenge).
package struct TrackerUnauthorized: Error, Sendable {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}

/// Device ids are ObjectId hex strings, like route ids.
package enum DeviceID {
    package static func isPlausible(_ id: String) -> Bool { RouteID.isPlausible(id) }
}
