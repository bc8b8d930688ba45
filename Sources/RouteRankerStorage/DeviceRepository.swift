import Foundation
import Mongo
import RouteRankerCore
import RouteRankerModels

/// Devices in `devices`. The key only as `key_hash` (unique index: the tracker endpoints look a
/// device up by it); `due_at` is indexed for the idle sweep. Settings, key and trip state change
/// only by writes guarded on this document's `version` or on `current_route`, so that two server
/// processes can never both open a route for one device; counters change by `$inc`/`$max`, which
/// commute, so they need no guard.
package struct DeviceRepository: Sendable {
    package let collection: MongoCollection

    package init(database: MongoDatabase) {
        collection = database.collection("devices")
    }

    package static let indexes = [
        MongoIndex(keys: ["key_hash": 1], name: "key_hash", unique: true),
        MongoIndex(keys: ["owner": 1, "created_at": 1], name: "owner_created_at"),
        MongoIndex(keys: ["due_at": 1], name: "due_at", sparse: true),
    ]

    package func insert(_ device: DeviceRecord) async throws {
        try await collection.insertOne(Self.document(device))
    }

    /// The device `id` unless deleted, whoever owns it.
    package func find(id: String) async throws -> DeviceRecord? {
        guard DeviceID.isPlausible(id) else { return nil }
        return try await collection.findOne(["_id": .string(id)]).flatMap(Self.record).flatMap {
            $0.deleted ? nil : $0
        }
    }

    /// The device `id` even while its deletion is being finished (for the sweep).
    package func findAny(id: String) async throws -> DeviceRecord? {
        try await collection.findOne(["_id": .string(id)]).flatMap(Self.record)
    }

    /// The device a tracker message's `key` may belong to (the caller compares the key with the
    /// device's stored digest): the one the key names, read by `_id` together with the devices of
    /// concurrent messages (see `DeviceKey`), or, for a key from before keys named their device, the
    /// one with that digest. Nothing is cached, so a replaced key or a deleted device stops working
    /// at once.
    package func find(key: String, linger: Duration = .zero) async throws -> DeviceRecord? {
        switch DeviceKey(key) {
        case .named(let id):
            return try await collection.documents(ids: [id], linger: linger)[id].flatMap(Self.record).flatMap {
                $0.deleted ? nil : $0
            }
        case .unnamed:
            return try await find(keyHash: Secret.hash(key))
        case .malformed:
            return nil
        }
    }

    /// The device whose key has the digest `keyHash`.
    package func find(keyHash: Data) async throws -> DeviceRecord? {
        try await collection.findOne(["key_hash": .binary(subtype: 0, Array(keyHash))]).flatMap(Self.record).flatMap {
            $0.deleted ? nil : $0
        }
    }

    /// `owner`'s devices, oldest first (ties by id).
    package func list(owner: String) async throws -> [DeviceRecord] {
        try await collection.find(["owner": .string(owner)], sort: ["created_at": 1, "_id": 1]).compactMap(Self.record)
            .filter { !$0.deleted }
    }

    /// Changes settings; returns the device as stored after.
    package func change(
        id: String, name: String?, activity: Activity?, splitAfterS: Int?, shareWith: [String]?
    ) async throws -> DeviceRecord? {
        var set: BSONDocument = [:]
        if let name { set["name"] = .string(name) }
        if let activity { set["activity"] = .string(activity.rawValue) }
        if let splitAfterS { set["split_after_s"] = .int(splitAfterS) }
        if let shareWith { set["share_with"] = .array(shareWith.map { .string($0) }) }
        if !set.isEmpty {
            try await collection.updateOne(
                filter: ["_id": .string(id), "deleted": false],
                update: ["$set": .document(set), "$inc": ["version": 1]])
        }
        return try await find(id: id)
    }

    /// Replaces the key's digest: the old key stops working with this write.
    package func replaceKeyHash(id: String, with hash: Data) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(id), "deleted": false],
            update: ["$set": ["key_hash": .binary(subtype: 0, Array(hash))], "$inc": ["version": 1]])
    }

    /// Marks the device deleted: its key stops working at once (its digest is replaced by one of
    /// random bytes, which keeps the unique index), its current route goes to `finishing`, and
    /// the sweep is told to finish the job should this process not.
    package func markDeleted(_ device: DeviceRecord, now: Date) async throws {
        var update: BSONDocument = [
            "$set": [
                "deleted": true, "key_hash": .binary(subtype: 0, Array(Secret.hash(Secret.generate()))),
                "current_route": .null, "due_at": .date(now),
            ],
            "$inc": ["version": 1],
        ]
        if let route = device.currentRoute { update["$addToSet"] = ["finishing": .string(route)] }
        try await collection.updateOne(filter: ["_id": .string(device.id)], update: update)
    }

    /// Removes every device of `owner`, deleted or not (leaving): their keys stop working with this.
    package func deleteAll(owner: String) async throws {
        _ = try await collection.deleteMany(["owner": .string(owner)])
    }

    /// Removes the device document for good.
    package func remove(id: String) async throws {
        try await collection.deleteOne(["_id": .string(id), "deleted": true])
    }

    /// Claims `route` as the device's recording route, if the device still has none, no finish
    /// pending, and is still at the version read: the one write that decides, among any number of
    /// processes, which route a device records into. The device is due for the idle sweep at
    /// `idleAt` (its first point's time plus the split), not earlier: a `due_at` left in the past by
    /// the finish before it would let a sweep, in any process, take the new route for an idle one
    /// between this claim and its message's counters, and delete it as no trip.
    ///
    /// The update shares its command with the claims of concurrent messages (phones that start
    /// recording together); `linger`: how long it waits for some when it finds none. When the
    /// batch's reply cannot say whether this claim matched, the device says: `route` is a new id,
    /// so the device names it only if this claim landed.
    package func claim(_ device: DeviceRecord, route: String, idleAt: Date, linger: Duration = .zero) async throws
        -> Bool
    {
        let matched = try await collection.updateOneCoalesced(
            filter: [
                "_id": .string(device.id), "version": .int(device.version), "current_route": .null, "deleted": false,
                "finishing": ["$size": 0],
            ],
            update: ["$set": ["current_route": .string(route), "due_at": .date(idleAt)], "$inc": ["version": 1]],
            linger: linger)
        if let matched { return matched }
        return try await findAny(id: device.id)?.currentRoute == route
    }

    /// Lets go of `route` without finishing it (its owner finished it by hand).
    package func detach(_ device: DeviceRecord, route: String) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(device.id), "current_route": .string(route)],
            update: ["$set": ["current_route": .null], "$inc": ["version": 1]])
    }

    /// Moves `route` from `current_route` to `finishing` (so a crash cannot lose its finish), if it
    /// is still the current route and, when `dueAt` is given, nothing was recorded since it was
    /// read. `lastT` (the route's last point) keeps later points' duplicate check.
    package func retire(_ device: DeviceRecord, route: String, lastT: Double?, dueAt: Date?, now: Date) async throws
        -> Bool
    {
        var filter: BSONDocument = ["_id": .string(device.id), "current_route": .string(route)]
        if let dueAt { filter["due_at"] = .date(dueAt) }
        var update: BSONDocument = [
            "$set": ["current_route": .null, "due_at": .date(now)],
            "$addToSet": ["finishing": .string(route)],
            "$inc": ["version": 1],
        ]
        if let lastT { update["$max"] = ["last_t": .double(lastT)] }
        return try await collection.updateOne(filter: filter, update: update).matchedCount == 1
    }

    /// `route` is finished and judged by the trip rule.
    package func finished(deviceID: String, route: String) async throws {
        try await collection.updateOne(
            filter: ["_id": .string(deviceID)], update: ["$pull": ["finishing": .string(route)]])
    }

    /// Counts one message answered `200` (and, for a recorded point, its time and when the route
    /// becomes idle): one single-document write of commutative operators, sent in one `update`
    /// with the counts of concurrent messages (and acknowledged, journaled, only once that is).
    package func count(
        _ outcome: TrackOutcome, deviceID: String, now: Date, recordedT: Double?, idleAt: Date?,
        linger: Duration = .zero
    ) async throws {
        var update: BSONDocument = [
            "$inc": ["counts.received": 1, "counts.\(outcome.rawValue)": 1],
            "$set": ["last_seen_at": .date(now)],
        ]
        if let recordedT, let idleAt { update["$max"] = ["last_t": .double(recordedT), "due_at": .date(idleAt)] }
        _ = try await collection.updateOneCoalesced(filter: ["_id": .string(deviceID)], update: update, linger: linger)
    }

    /// Devices the sweep must look at by `now`, earliest first.
    package func due(by now: Date, limit: Int) async throws -> [DeviceRecord] {
        try await collection.find(["due_at": ["$lte": .date(now)]], sort: ["due_at": 1], limit: limit)
            .compactMap(Self.record)
    }

    /// Nothing is left to do for the device: it leaves the sweep's view, unless a route was opened
    /// or a point recorded meanwhile.
    package func clearDue(_ device: DeviceRecord, now: Date) async throws {
        try await collection.updateOne(
            filter: [
                "_id": .string(device.id), "current_route": .null, "finishing": ["$size": 0],
                "due_at": ["$lte": .date(now)],
            ],
            update: ["$unset": ["due_at": ""]])
    }

    private static func document(_ device: DeviceRecord) -> BSONDocument {
        [
            "_id": .string(device.id),
            "owner": .string(device.owner),
            "name": .string(device.name),
            "activity": .string(device.activity.rawValue),
            "split_after_s": .int(device.splitAfterS),
            "share_with": .array(device.shareWith.map { .string($0) }),
            "created_at": .date(device.createdAt),
            "key_hash": .binary(subtype: 0, Array(device.keyHash)),
            "last_seen_at": device.lastSeenAt.map(BSONValue.date) ?? .null,
            "counts": [
                "received": .int(device.counts.received), "recorded": .int(device.counts.recorded),
                "duplicates": .int(device.counts.duplicates), "dropped": .int(device.counts.dropped),
                "ignored": .int(device.counts.ignored),
            ],
            "current_route": device.currentRoute.map(BSONValue.string) ?? .null,
            "finishing": .array(device.finishing.map { .string($0) }),
            "deleted": .bool(device.deleted),
            "version": .int(device.version),
        ]
    }

    private static func record(_ document: BSONDocument) -> DeviceRecord? {
        guard let id = document.string("_id"), let owner = document.string("owner"),
            let name = document.string("name"),
            let activity = document.string("activity").flatMap(Activity.init(rawValue:)),
            let split = document.int("split_after_s"), let createdAt = document.date("created_at"),
            let keyHash = document.binary("key_hash"), let version = document.int("version")
        else { return nil }
        let counts = document.document("counts") ?? [:]
        var device = DeviceRecord(
            id: id, owner: owner, name: name, activity: activity, splitAfterS: split,
            shareWith: (document.array("share_with") ?? []).compactMap(\.stringValue), createdAt: createdAt,
            keyHash: Data(keyHash), lastSeenAt: document.date("last_seen_at"))
        device.counts = DeviceCounts(
            received: counts.int("received") ?? 0, recorded: counts.int("recorded") ?? 0,
            duplicates: counts.int("duplicates") ?? 0, dropped: counts.int("dropped") ?? 0,
            ignored: counts.int("ignored") ?? 0)
        device.currentRoute = document.string("current_route")
        device.finishing = (document.array("finishing") ?? []).compactMap(\.stringValue)
        device.lastT = document.double("last_t")
        device.dueAt = document.date("due_at")
        device.deleted = document.bool("deleted") ?? false
        device.version = version
        return device
    }
}
