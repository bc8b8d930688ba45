import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage

/// Creating, appending to, finishing and reading routes (changes and deletion are in
/// `RoutesController+Changes.swift`).
struct RoutesController: Sendable {
    let auth: Authenticator
    /// How a request reaches one route (token → caller and route, one rule).
    let access: RouteAccess
    let routes: RouteRepository
    let buckets: PointBuckets
    let idempotency: IdempotencyRepository
    let locks: RouteLocks
    let links: LinkRepository
    let groups: GroupRepository
    let paths: PathRepository
    let viewer: RouteViewer
    let clock: WallClock
    /// Keeps segment efforts in step: a route is matched when its activity changes.
    let efforts: SegmentEfforts
    /// Keeps best efforts in step, as `efforts` does segment efforts.
    let bestEfforts: BestEffortsKeeper
    /// Finishes routes (and matches their efforts); removes them with everything attached.
    let finisher: RouteFinisher
    let removal: RouteRemoval

    /// `POST /v1/routes`: `201` with the summary. With an `Idempotency-Key`, a retry by the same
    /// user answers `200` with the route the first request created.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<RouteSummary> {
        let user = try await auth.user(request)
        let format = try UploadFormat.of(request, allowed: UploadFormat.allCases)
        guard let key = try request.idempotencyKey() else {
            var noHash: BodyHash? = nil
            return .created(
                try await createRoute(request, id: NewID.make(), format: format, owner: user, hash: &noHash, context))
        }
        switch try await idempotency.claim(user: user.id, key: key, now: clock.now) {
        case .inProgress(let seconds):
            // Retry-After: when the running request's lease ends at the latest.
            throw APIError(
                .conflict, "conflict", "a request with this Idempotency-Key is still running",
                headers: [.retryAfter: String(max(1, seconds))])
        case .done(let routeID, let fingerprint):
            var hash = BodyHash(request)
            for try await chunk in request.body { hash.update(chunk) }
            guard hash.finalize() == fingerprint else {
                throw APIError.unprocessable("this Idempotency-Key was used for a different request")
            }
            let route = try await access.owned(routeID, token: try auth.token(request)).route
            return JSONResponse(status: .ok, body: ownerSummary(route))
        case .claimed(let holding):
            do {
                let answer = try await createOnce(request, holding, format: format, owner: user, context)
                try await idempotency.complete(holding, fingerprint: answer.fingerprint)
                return answer.response
            } catch {
                do {
                    try await idempotency.release(holding)
                } catch let releaseError {
                    // The lease runs out by itself (`IdempotencyRepository.lease`); the request's own
                    // error is the answer.
                    context.logger.warning("could not release an idempotency claim: \(releaseError)")
                }
                throw error
            }
        }
    }

    /// Creates the route the key holds, once: the key fixes its id, so an attempt after one whose
    /// answer was lost (the route stored, the reply not) finds that route and replays it (`200`),
    /// and two attempts racing store one route between them (the second's insert is refused).
    private func createOnce(
        _ request: Request, _ holding: IdempotencyRepository.Holding, format: UploadFormat, owner: UserRecord,
        _ context: AppRequestContext
    ) async throws -> (response: JSONResponse<RouteSummary>, fingerprint: String) {
        var hash: BodyHash? = BodyHash(request)
        if holding.resumed, let stored = try await routes.find(id: holding.route), stored.owner == owner.id {
            for try await chunk in request.body { hash?.update(chunk) }
            return (JSONResponse(status: .ok, body: ownerSummary(stored)), hash?.finalize() ?? "")
        }
        do {
            let summary = try await createRoute(
                request, id: holding.route, format: format, owner: owner, hash: &hash, context)
            return (.created(summary), hash?.finalize() ?? "")
        } catch is RouteAlreadyExists {
            guard let stored = try await routes.find(id: holding.route) else { throw VersionConflict() }
            return (JSONResponse(status: .ok, body: ownerSummary(stored)), hash?.finalize() ?? "")
        }
    }

    private func createRoute(
        _ request: Request, id: String, format: UploadFormat, owner: UserRecord, hash: inout BodyHash?,
        _ context: AppRequestContext
    ) async throws -> RouteSummary {
        let query = request.query
        var route = StoredRoute(
            new: RouteRecord(
                id: id, owner: owner.id, name: "Untitled", activity: .other, state: .finished,
                createdAt: clock.now, annotations: [],
                accumulator: StatsAccumulator(activity: .other), version: 0))
        var recording: Bool?
        var ingest: RouteIngest
        var writer: String?
        let stored: StoredRoute
        do {
            // `partial` matters to FIT bodies only, but a malformed value is refused whatever the body.
            _ = try RouteRules.flag(query["partial"], field: "partial")
            if let stream = format.streamFormat {
                route.name = try RouteRules.name(query["name"])
                route.activity = try RouteRules.activity(query["activity"])
                route.accumulator = StatsAccumulator(activity: route.activity)
                recording = try RouteRules.recording(query["recording"])
                ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
                writer = ingest.writerID
                try await request.streamPoints(stream, bodyHash: &hash) { try await ingest.add($0) }
            } else {
                let body = try await request.readRouteDocument(format, bodyHash: &hash)
                route.name = try RouteRules.name(body.name)
                route.activity = try RouteRules.activity(body.activity)
                route.accumulator = StatsAccumulator(activity: route.activity)
                try RouteRules.annotations(existing: 0, adding: body.annotations.count)
                route.annotations = body.annotations
                recording = body.recording
                ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
                writer = ingest.writerID
                try await ingest.add(body.points)
            }
            stored = try await ingest.commit(state: recording == true ? .recording : .finished)
        } catch {
            // A failure the database may have acted on (the route stored, the reply lost) keeps the
            // buckets: they are the route's if its commit landed, and invisible if not.
            if let writer, StorageFailure(error) == nil, !(error is RouteAlreadyExists) {
                await discardBuckets(of: route.id, writer: writer, context)
            }
            throw error
        }
        // After the commit: the route stands even if matching fails (a retried finish matches it).
        if stored.state == .finished {
            try await efforts.match(stored)
            try await bestEfforts.update(stored)
        }
        return RouteSummary(stored.record, sharedWith: [])
    }

    /// The buckets this request stored for a route it never committed: invisible anyway, so
    /// removing them only saves space; a failure here is logged, and the request's own error is
    /// the answer. Only this request's own (its writer id): an attempt with the same
    /// `Idempotency-Key` may be committing the same route id meanwhile.
    private func discardBuckets(of id: String, writer: String, _ context: AppRequestContext) async {
        do {
            try await buckets.deleteAll(route: id, writer: writer)
        } catch {
            context.logger.warning("could not remove the buckets of an uncommitted route \(id): \(error)")
        }
    }

    /// `POST /v1/routes/{id}/points`: appends JSON, NDJSON or text points to a recording route.
    func append(_ request: Request, _ context: AppRequestContext) async throws -> AppendResult {
        let id = try context.parameters.require("id")
        let token = try auth.token(request)
        // The token is checked with the route read, under the route's lock (see `withOwnedRoute`).
        return try await locks.withLock(id) {
            let route = try await access.owned(id, token: token).route
            let format = try UploadFormat.of(request, allowed: [.json, .ndjson, .text])  // FIT, GPX, TCX: create only
            guard route.state == .recording else {
                throw APIError.conflict("the route is finished; it takes no more points")
            }
            var ingest = RouteIngest(into: route, buckets: buckets, routes: routes)
            var noHash: BodyHash? = nil
            if let stream = format.streamFormat {
                try await request.streamPoints(stream, bodyHash: &noHash) { try await ingest.add($0) }
            } else {
                let body = try await request.readRouteDocument(format, bodyHash: &noHash)
                try RouteRules.annotations(existing: route.annotations.count, adding: body.annotations.count)
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
        return try await withOwnedRoute(try context.parameters.require("id"), request) { route in
            ownerSummary(try await finisher.finish(route))
        }
    }

    /// Runs `body` on the route `id` if the caller of `request` owns it (else `401`, `404`, or `403`
    /// for someone it is shared with), holding the route's lock in this process: the route is read
    /// under the lock, so that writers in this process queue instead of failing each other's version
    /// guard. (Across processes the guard still decides; the loser gets `409` and resends, which is
    /// harmless.)
    func withOwnedRoute<T: Sendable>(
        _ id: String, _ request: Request, _ body: @Sendable (StoredRoute) async throws -> T
    ) async throws -> T {
        let token = try auth.token(request)
        return try await locks.withLock(id) { try await body(try await access.owned(id, token: token).route) }
    }

    /// The summary the owner sees, with the recipients of the route's shares.
    func ownerSummary(_ route: StoredRoute) -> RouteSummary {
        RouteSummary(route.record, sharedWith: route.recipients)
    }

    /// `GET /v1/routes/{id}`.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> RouteSummary {
        let reading = try await access.reading(try context.parameters.require("id"), token: try auth.token(request))
        return try await viewer.summary(reading.route, lens: reading.lenses.privacy, sharedWith: reading.recipients)
    }
}
