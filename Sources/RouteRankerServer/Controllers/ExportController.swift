import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import ZipArchive

/// Moving out: `GET /v1/users/me/export` (API.md "Moving in, moving out, leaving"), everything I
/// own as one zip, streamed as it is written: `account.json`, `routes.json` (every route's summary
/// with `shared_with` and its links, never a secret), `routes/<id>.gpx` (all its points, as
/// `?format=gpx` gives them to me), `groups.json`, `segments.json`, `devices.json` (never a key).
///
/// Memory stays bounded whatever the number of routes: routes are read a page at a time, each
/// route's points a bucket at a time, and what the zip writer produces is sent before the next
/// piece is read (libarchive's writer, which never seeks back, so the zip can go out as it is
/// made). Nothing of another person's is in it: a group lists only the routes I can still see,
/// by id, as `GET /v1/groups` does.
struct ExportController: Sendable {
    let auth: Authenticator
    let routes: RouteRepository
    let buckets: PointBuckets
    let links: LinkRepository
    let groups: GroupRepository
    let segments: SegmentRepository
    let devices: DeviceRepository
    let access: RouteAccess

    /// Routes read per query while writing the archive.
    static let page = 50

    func export(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let user = try await auth.user(request)
        // Read before the first byte goes out, so that a failure here is an ordinary error answer.
        let myGroups = try await groups.groups(of: user.id)
        let mySegments = try await segments.segments(of: user.id)
        let myDevices = try await devices.list(owner: user.id)
        let headers: HTTPFields = [
            .contentType: "application/zip",
            .contentDisposition: #"attachment; filename="routeranker-\#(user.id).zip""#,
            .cacheControl: "private, no-store",
        ]
        let body = ResponseBody { writer in
            let out = ZipOutput()
            let zip = try ZipWriter { bytes in out.bytes.append(contentsOf: bytes) }
            func flush() async throws {
                guard !out.bytes.isEmpty else { return }
                try await writer.write(ByteBuffer(bytes: out.bytes))
                out.bytes.removeAll(keepingCapacity: true)
            }
            let now = Date()
            try zip.addEntry(
                "account.json", modified: now,
                data: try Self.json(
                    AccountExport(
                        id: user.id, name: user.name, friends: user.friends, createdAt: user.createdAt,
                        privacyZones: user.privacyZones)))

            // routes.json, a page of summaries at a time; then each route's GPX.
            try zip.beginEntry("routes.json", modified: now)
            try zip.write(Array("[".utf8))
            var after: String?
            var first = true
            while true {
                let batch = try await routes.page(owner: user.id, afterID: after, limit: Self.page)
                for route in batch {
                    let summary = RouteExport(
                        summary: RouteSummary(route.record, sharedWith: route.recipients),
                        links: try await links.links(of: route.id).map {
                            LinkExport(id: $0.id, expiresAt: $0.expiresAt)
                        })
                    try zip.write(Array((first ? "" : ",").utf8) + (try Self.json(summary)))
                    first = false
                    try await flush()
                }
                guard batch.count == Self.page, let last = batch.last else { break }
                after = last.id
            }
            try zip.write(Array("]".utf8))
            try zip.endEntry()
            after = nil
            while true {
                let batch = try await routes.page(owner: user.id, afterID: after, limit: Self.page)
                for route in batch {
                    try zip.beginEntry("routes/\(route.id).gpx", modified: route.endedAt ?? route.createdAt)
                    var gpx = DownloadWriter(
                        format: .gpx, id: route.id, name: route.name, annotations: route.annotations)
                    try zip.write(Array(gpx.header().utf8))
                    for try await chunk in buckets.read(route) {
                        var piece: [UInt8] = []
                        gpx.chunk(chunk, into: &piece)
                        try zip.write(piece)
                        try await flush()
                    }
                    try zip.write(Array(gpx.footer().utf8))
                    try zip.endEntry()
                    try await flush()
                }
                guard batch.count == Self.page, let last = batch.last else { break }
                after = last.id
            }

            var groupViews: [GroupView] = []
            for group in myGroups {
                let visible = try await access.readableFigures(group.routes, by: user)
                groupViews.append(
                    GroupView(
                        id: group.id, name: group.name, routes: group.routes.filter { visible[$0] != nil },
                        createdAt: group.createdAt))
            }
            try zip.addEntry("groups.json", modified: now, data: try Self.json(groupViews))
            try zip.addEntry("segments.json", modified: now, data: try Self.json(mySegments.map { SegmentView($0) }))
            try zip.addEntry("devices.json", modified: now, data: try Self.json(myDevices.map(DeviceView.init)))
            try zip.finish()
            try await flush()
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    private static func json(_ value: some Encodable) throws -> [UInt8] {
        [UInt8](try JSONEncoder.api.encode(value))
    }
}

/// What the zip writer has produced and not yet sent (it is only touched by the one task that
/// writes the archive).
private final class ZipOutput: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// `account.json`.
struct AccountExport: Encodable {
    var id: String
    var name: String
    var friends: [String]
    var createdAt: Date
    var privacyZones: [PrivacyZone]
}

/// One route of `routes.json`: its summary as I see it, with its links (never their secrets).
struct RouteExport: Encodable {
    var summary: RouteSummary
    var links: [LinkExport]

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(links, forKey: .links)
    }

    private enum Keys: String, CodingKey { case links }
}

/// A link of `routes.json`: `{"id","expires_at"}`.
struct LinkExport: Encodable {
    var id: String
    var expiresAt: Date
}
