import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Pages for people: the share link page, and the web app's files.
struct PagesController: Sendable {
    let access: RouteAccess
    let users: UserRepository
    let pictures: RoutePictures
    /// The link page's map and profile are drawn on the costly threads; a page for people waits
    /// its turn there instead of being refused.
    let costly: CostlyWork

    /// `GET /l/{secret}`: the linked route as a page — name, owner, date, stats, map, elevation
    /// profile, downloads, OpenGraph tags — as anyone but the owner sees it. An unusable secret
    /// gives the `404` page.
    func linkPage(_ request: Request, _ context: AppRequestContext) async throws -> WebPage {
        let secret = try context.parameters.require("secret")
        let reading: RouteAccess.LinkReading
        do {
            reading = try await access.reading(link: secret)
        } catch is LinkNotUsable {
            throw LinkPageGone()
        }
        let (route, lens) = (reading.route, reading.lenses.privacy)
        let owner = try await users.find(id: route.owner)
        let points = try await pictures.visiblePoints(route, lens: lens)
        let stats = route.stats
        let date = route.startedAt.map(Self.dateText) ?? "not started"
        let distance = HumanFormat.distance(stats.distanceM)
        let time = HumanFormat.duration(stats.durationS)
        let text: [String: String] = [
            "name": route.name,
            "owner": owner?.name ?? route.owner,
            "activity": route.activity.rawValue,
            "date": date,
            "datetime": route.startedAt.map { RFC3339.format($0.timeIntervalSince1970) } ?? "",
            "distance": distance,
            "duration": time,
            "moving_time": HumanFormat.duration(stats.movingTimeS),
            // People's units: pace on foot, speed on wheels (and for anything else).
            "rate_label": route.activity.isOnFoot ? "Pace" : "Average speed",
            "rate": route.activity.isOnFoot
                ? HumanFormat.pace(stats.avgPaceSPerKm) : HumanFormat.speed(stats.avgSpeedMps),
            "gain": HumanFormat.elevation(stats.elevationGainM),
            "summary": "\(distance) in \(time), shared by \(owner?.name ?? route.owner) on RouteRanker",
            "gpx": "/v1/links/\(secret)/points?format=gpx",
            "geojson": "/v1/links/\(secret)/points?format=geojson",
        ]
        let tiles = pictures.tiles(tiled: true)
        let markup = try await costly.runUnbounded {
            [
                "map": RouteMapPicture.svg(points: points, width: 720, title: "Map of \(route.name)", tiles: tiles),
                "profile": ProfileChart.svg(
                    points: points, y: .elevation, x: .distance, width: 720,
                    title: "Elevation profile of \(route.name)"),
            ]
        }
        return WebPage(
            html: PageTemplate.render(WebResources.text("link.html"), text: text, markup: markup),
            tileOrigin: pictures.tiles(tiled: true)?.origin)
    }

    /// `GET /`: the web app.
    func app(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        try asset("index.html")
    }

    /// `GET /web/{file}`: the web app's scripts, styles and icons; anything else is `404`.
    func asset(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        try asset(try context.parameters.require("file"))
    }

    private func asset(_ name: String) throws -> Response {
        guard let asset = WebResources.assets[name], !asset.bytes.isEmpty else {
            throw APIError.notFound("no such file")
        }
        // The app's pages show maps over the operator's tiles, when there are some.
        var headers = WebPage.securityHeaders(tileOrigin: pictures.tiles(tiled: true)?.origin)
        headers[.contentType] = asset.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    /// "Tuesday, 24 November 2026" (UTC: the page does not know the reader's zone).
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEEE, d MMMM yyyy"
        return formatter.string(from: date)
    }
}
