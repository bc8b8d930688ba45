import Foundation
import Hummingbird
import QRCode
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Devices: the phones that record through OwnTracks, Traccar Client or GPSLogger.
struct DevicesController: Sendable {
    let auth: Authenticator
    let users: UserRepository
    let devices: DeviceRepository
    let trips: DeviceTrips
    let locks: RouteLocks
    let clock: WallClock
    /// The server's public URL (no trailing `/`), if configured; else the request's `Host`.
    let publicURL: String?

    /// `POST /v1/devices`: `201` with the device, its key (shown once) and the ingest addresses.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> CarriesSecret<
        JSONResponse<CreatedDevice>
    > {
        let user = try await auth.user(request)
        let base = try base(request)  // a bad `Host` is refused before anything is stored
        let body = try await request.decodeJSON(CreateDeviceRequest.self)
        let name = try RouteRules.name(body.name)
        let activity = try RouteRules.activity(body.activity)
        let split = try DeviceRules.splitAfter(body.splitAfterS)
        let shareWith = try await validShareList(body.shareWith ?? [], of: user)
        let id = NewID.make()
        let key = DeviceKey.make(for: id)
        let device = DeviceRecord(
            id: id, owner: user.id, name: name, activity: activity, splitAfterS: split,
            shareWith: shareWith, createdAt: clock.now, keyHash: Secret.hash(key), lastSeenAt: nil)
        try await devices.insert(device)
        let created = CreatedDevice(device: DeviceView(device), key: key, ingest: IngestAddresses(base: base, key: key))
        return CarriesSecret(.created(created))
    }

    /// `GET /v1/devices`: mine, oldest first.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<DeviceView> {
        let user = try await auth.user(request)
        let pageRequest = try PageRequest(request, list: "devices", shape: .dateThenID)
        let all = try await devices.list(owner: user.id)
        let page = pageRequest.page(
            of: all, list: "devices", key: { [$0.createdAt.millisecondsKey, $0.id] }, isAfter: OldestFirst.thenByKey)
        return Page(items: page.items.map(DeviceView.init), next: page.next, total: all.count)
    }

    /// `GET /v1/devices/{id}`.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> DeviceView {
        DeviceView(try await owned(request, context))
    }

    /// `PATCH /v1/devices/{id}`: `name`, `activity` and `share_with` apply to routes started
    /// afterwards, `split_after_s` from the next point on.
    func patch(_ request: Request, _ context: AppRequestContext) async throws -> DeviceView {
        let user = try await auth.user(request)
        let device = try await owned(request, context, user: user)
        let body = try await request.decodeJSON(ChangeDeviceRequest.self)
        let name = try body.name.map { try RouteRules.name($0) }
        let activity = try body.activity.map { try RouteRules.activity($0) }
        let split = try body.splitAfterS.map { try DeviceRules.splitAfter($0) }
        var shareWith: [String]?
        if let list = body.shareWith { shareWith = try await validShareList(list, of: user) }
        guard
            let changed = try await devices.change(
                id: device.id, name: name, activity: activity, splitAfterS: split, shareWith: shareWith)
        else { throw DeviceNotVisible() }
        return DeviceView(changed)
    }

    /// `POST /v1/devices/{id}/key`: a new key; the old one stops working at once.
    func rotateKey(_ request: Request, _ context: AppRequestContext) async throws -> CarriesSecret<DeviceKeyView> {
        let device = try await owned(request, context)
        let base = try base(request)  // a bad `Host` is refused before the old key stops working
        let key = DeviceKey.make(for: device.id)
        try await devices.replaceKeyHash(id: device.id, with: Secret.hash(key))
        return CarriesSecret(DeviceKeyView(key: key, ingest: IngestAddresses(base: base, key: key)))
    }

    /// `POST /v1/devices/{id}/qr.svg` with `{"app", "key"}`: the QR code an app scans to be set up
    /// (`DeviceSetupCode`), for the device's current key, as SVG. The key comes in the body, never
    /// in the URL, since the server keeps only its hash; a key that is not the device's (an old
    /// one) is `422`. Not stored by caches (`no-store`): the picture holds the key.
    func setupCode(_ request: Request, _ context: AppRequestContext) async throws -> SVGResponse {
        let device = try await owned(request, context)
        let body = try await request.decodeJSON(DeviceSetupRequest.self)
        guard let app = TrackerApp(rawValue: body.app) else {
            let names = TrackerApp.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.invalid("'app' must be one of \(names)", field: "app")
        }
        guard body.key.utf8.count <= DeviceAuthenticator.maxKeyBytes,
            Secret.matches(body.key, storedHash: device.keyHash)
        else {
            throw APIError.unprocessable(
                "'key' is not this device's current key (a new key replaces the old one)",
                details: ["field": .string("key")])
        }
        let ingest = IngestAddresses(base: try base(request), key: body.key)
        let text = DeviceSetupCode.text(app: app, ingest: ingest, owner: device.owner, key: body.key)
        let modules: [[Bool]]
        do {
            modules = try QRCode.modules(for: text)
        } catch .tooLong {
            // Only a very long server address (a configured one, or the request's `Host`) can do this.
            throw APIError.unprocessable("the server's address is too long for a QR code")
        }
        let svg = QRCodeSVG.svg(
            modules: modules, title: "QR code: \(app.title) settings for \(device.name)",
            moduleSize: Self.qrModulePixels)
        return SVGResponse(svg: svg, etag: nil, cacheControl: "no-store")
    }

    /// Pixels a module of a setup QR code (OwnTracks', the largest, is about version 13: 69
    /// modules and the quiet zone, about 600 pixels).
    static let qrModulePixels = 8.0

    /// `DELETE /v1/devices/{id}`: `204`; the key stops working at once, the current route is
    /// finished (and judged by the trip rule); the device's routes stay.
    func delete(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        let device = try await owned(request, context)
        try await locks.withLock(device.id) {
            guard let current = try await devices.find(id: device.id) else { return }
            try await devices.markDeleted(current, now: clock.now)
            // If this process dies here, the sweep finishes the job (the device is due now).
            guard let marked = try await devices.findAny(id: device.id) else { return }
            try await trips.completePending(marked)
            try await devices.remove(id: device.id)
        }
        return NoContent()
    }

    /// The device `{id}` if the caller owns it; else `404` (never revealing that it exists).
    private func owned(
        _ request: Request, _ context: AppRequestContext, user: UserRecord? = nil
    ) async throws -> DeviceRecord {
        let caller: UserRecord
        if let user { caller = user } else { caller = try await auth.user(request) }
        guard let device = try await devices.find(id: try context.parameters.require("id")),
            device.owner == caller.id
        else { throw DeviceNotVisible() }
        return device
    }

    /// `share_with` as for a share: valid ids, each registered (`404`) and my friend (`403`);
    /// duplicates removed, order kept.
    private func validShareList(_ ids: [String], of user: UserRecord) async throws -> [String] {
        guard ids.count <= UserRules.maxFriends else {
            throw InvalidInput("'share_with' may list at most \(UserRules.maxFriends) users", field: "share_with")
        }
        var seen = Set<String>()
        var list: [String] = []
        for (index, id) in ids.enumerated() {
            guard UserRules.isValidID(id) else {
                throw InvalidInput("'share_with[\(index)]' is not a valid user id", field: "share_with", index: index)
            }
            if seen.insert(id).inserted { list.append(id) }
        }
        if list.contains(user.id) { throw APIError.unprocessable("a device cannot share with its owner") }
        let registered = Set(try await users.names(of: list).map(\.id))
        if let unknown = list.first(where: { !registered.contains($0) }) {
            throw APIError.notFound("user '\(unknown)' not found")
        }
        if let stranger = list.first(where: { !user.friends.contains($0) }) {
            throw APIError.forbidden("'\(stranger)' is not in your friends list; devices share with friends only")
        }
        return list
    }

    /// Where the apps reach this server: the configured public URL, else `http://` and the
    /// request's `Host` — which is the client's to choose, so it must be a host and port and
    /// nothing else (`HostHeader`) before it goes into the addresses: otherwise `400`.
    private func base(_ request: Request) throws -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        guard let authority = request.head.authority else { return "http://localhost" }
        guard HostHeader.isValid(authority) else {
            throw APIError.invalid(
                "the Host header must be a host name, IPv4 or [IPv6] address and an optional port", field: "Host")
        }
        return "http://" + authority
    }
}

/// Keyset order of lists sorted oldest first by a millisecond timestamp, then by id.
enum OldestFirst {
    /// Whether `key` comes after `position`.
    static func thenByKey(_ position: [String], _ key: [String]) -> Bool {
        guard position.count == 2, key.count == 2, let p = Int64(position[0]), let k = Int64(key[0]) else {
            return false
        }
        return k > p || (k == p && CodePoint.precedes(position[1], key[1]))
    }
}

extension DeviceView: APIResponse {}
extension DeviceKeyView: APIResponse {}
