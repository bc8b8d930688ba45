import Foundation
import Hummingbird
import Mongo
import RouteRankerCore

/// Creating, appending to, finishing, reading, changing and deleting routes.
struct RoutesController: Sendable {
    let auth: Authenticator
    let visibility: Visibility
    let routes: RouteRepository
    let buckets: PointBuckets
    let idempotency: IdempotencyRepository
    let database: MongoDatabase
    let locks: RouteLocks
    let shares: ShareRepository
    let links: LinkRepository
    let groups: GroupRepository
    let paths: PathRepository
    let viewer: RouteViewer

    /// `POST /v1/routes`: `201` with the summary. With an `Idempotency-Key`, a retry by the same
    /// user answers `200` with the route the first request created.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<RouteSummary> {
        let user = try await auth.user(request)
        let format = try UploadFormat.of(request, allowed: UploadFormat.allCases)
        guard let key = try IdempotencyRepository.key(request) else {
            var hash = BodyHash(request)
            return .created(try await createRoute(request, format: format, owner: user, hash: &hash))
        }
        switch try await idempotency.claim(user: user.id, key: key) {
        case .inProgress:
            throw APIError.conflict("a request with this Idempotency-Key is still running")
        case .done(let routeID, let fingerprint):
            var hash = BodyHash(request)
            for try await chunk in request.body { hash.update(chunk) }
            guard hash.finalize() == fingerprint else {
                throw APIError.unprocessable("this Idempotency-Key was used for a different request")
            }
            let route = try await visibility.readable(routeID, by: user)
            return JSONResponse(status: .ok, body: try await ownerSummary(route))
        case .claimed(let claim):
            do {
                var hash = BodyHash(request)
                let summary = try await createRoute(request, format: format, owner: user, hash: &hash)
                try await idempotency.complete(claim, route: summary.id, fingerprint: hash.finalize())
                return .created(summary)
            } catch {
                await idempotency.release(claim)
                throw error
            }
        }
    }

    private func createRoute(
        _ request: Request, format: UploadFormat, owner: UserRecord, hash: inout BodyHash
    ) async throws -> RouteSummary {
        let query = request.uri.queryParameters
        var route = RouteRecord(
            id: BSONObjectID().hex, owner: owner.id, name: "Untitled", activity: .other, state: .finished,
            createdAt: Date.now.millisecondPrecision, annotations: [],
            accumulator: StatsAccumulator(activity: .other), version: 0)
        var ingest: RouteIngest
        var recording: Bool?
        if format.isStream {
            route.name = try RouteRules.name(query["name"].map(String.init))
            route.activity = try RouteRules.activity(query["activity"].map(String.init))
            route.accumulator = StatsAccumulator(activity: route.activity)
            recording = try RouteRules.recording(query["recording"].map(String.init))
            ingest = try await RouteIngest.start(into: route, buckets: buckets, database: database)
            do {
                try await request.streamPoints(format, bodyHash: &hash) { try await ingest.add($0) }
            } catch {
                await discardNewRoute(route.id)
                throw error
            }
        } else {
            let body = try await request.readRouteDocument(format, bodyHash: &hash)
            let queryName = format == .gpx ? query["name"].map(String.init) : nil
            route.name = try RouteRules.name(body.name ?? queryName)
            route.activity = try RouteRules.activity(body.activity ?? query["activity"].map(String.init))
            route.accumulator = StatsAccumulator(activity: route.activity)
            route.annotations = body.annotations
            recording = body.recording
            ingest = try await RouteIngest.start(into: route, buckets: buckets, database: database)
            do {
                try await ingest.add(body.points)
            } catch {
                await discardNewRoute(route.id)
                throw error
            }
        }
        do {
            let stored = try await ingest.commit(state: recording == true ? .recording : .finished)
            return RouteSummary(stored, sharedWith: [])
        } catch {
            await discardNewRoute(route.id)
            throw error
        }
    }

    /// Best effort: buckets of a route that was never committed are invisible anyway.
    private func discardNewRoute(_ id: String) async {
        try? await buckets.deleteAll(route: id)
    }

    /// `POST /v1/routes/{id}/points`: appends JSON, NDJSON or text points to a recording route.
    func append(_ request: Request, _ context: AppRequestContext) async throws -> AppendResult {
        let user = try await auth.user(request)
        let id = try context.parameters.require("id")
        let route = try await visibility.owned(id, by: user)
        let format = try UploadFormat.of(request, allowed: [.json, .ndjson, .text])
        guard route.state == .recording else {
            throw APIError.conflict("the route is finished; it takes no more points")
        }
        return try await locks.withLock(id) {
            // Re-read under the lock: another append may have committed meanwhile.
            guard let current = try await routes.find(id: id), current.owner == user.id else {
                throw Visibility.notFound
            }
            guard current.state == .recording else {
                throw APIError.conflict("the route is finished; it takes no more points")
            }
            var ingest = try await RouteIngest.start(into: current, buckets: buckets, database: database)
            var hash = BodyHash(request)
            if format.isStream {
                try await request.streamPoints(format, bodyHash: &hash) { try await ingest.add($0) }
            } else {
                let body = try await request.readRouteDocument(format, bodyHash: &hash)
                try await ingest.add(body.points)
                ingest.annotate(body.annotations)
            }
            let stored = try await ingest.commit()
            return AppendResult(
                accepted: ingest.accepted, duplicates: ingest.duplicates, dropped: ingest.dropped, stats: stored.stats)
        }
    }

    /// `POST /v1/routes/{id}/finish`: closes the route (`200` again if it already is).
    func finish(_ request: Request, _ context: AppRequestContext) async throws -> RouteSummary {
        let user = try await auth.user(request)
        let id = try context.parameters.require("id")
        _ = try await visibility.owned(id, by: user)
        return try await locks.withLock(id) {
            var route = try await visibility.owned(id, by: user)
            if route.state == .recording {
                let base = route.version
                route.state = .finished
                route.version += 1
                try await routes.replace(route, expectedVersion: base)
            }
            return try await ownerSummary(route)
        }
    }

    /// The summary the owner sees, with the recipients of the route's shares.
    func ownerSummary(_ route: RouteRecord) async throws -> RouteSummary {
        RouteSummary(route, sharedWith: try await shares.shares(of: route.id).map(\.to))
    }

    /// `GET /v1/routes/{id}`.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> RouteSummary {
        let user = try await auth.user(request)
        let route = try await visibility.readable(try context.parameters.require("id"), by: user)
        let lens = try await viewer.lens(owner: route.owner, viewer: user.id)
        let sharedWith = lens.isOwner ? try await shares.shares(of: route.id).map(\.to) : nil
        return try await viewer.summary(route, lens: lens, sharedWith: sharedWith)
    }
}
