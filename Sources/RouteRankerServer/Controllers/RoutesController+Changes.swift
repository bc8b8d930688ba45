import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels

/// `PATCH /v1/routes/{id}` body.
struct RouteChangeRequest: Decodable {
    var name: String?
    var activity: String?
}

extension RoutesController {
    /// `PATCH /v1/routes/{id}`: rename and/or change the activity. A new activity recomputes the
    /// stats over the kept points with its parameters (points already dropped stay dropped) and
    /// sets the maximum speed for later appends.
    func patch(_ request: Request, _ context: AppRequestContext) async throws -> RouteSummary {
        let id = try context.parameters.require("id")
        _ = try await access.owned(id, token: try auth.token(request))  // 401/404/403 before the body is read
        let body = try await request.decodeJSON(RouteChangeRequest.self)
        let name = try body.name.map { try RouteRules.name($0) }
        let activity = try body.activity.map { try RouteRules.activity($0) }
        return try await withOwnedRoute(id, request) { route in
            var route = route
            let base = route.version
            let activityChanged = activity != nil && activity != route.activity
            if let name { route.name = name }
            if let activity, activityChanged {
                route.activity = activity
                var accumulator = route.accumulator
                // Reading every kept point is inherent to "recompute over the kept points".
                var kept: [TrackPoint] = []
                kept.reserveCapacity(route.pointCount)
                for try await chunk in buckets.read(route) { kept += chunk }
                accumulator.changeActivity(to: activity, keptPoints: kept)
                route.accumulator = accumulator
            }
            guard name != nil || activity != nil else { return ownerSummary(route) }
            route.version += 1
            try await routes.commit(route, over: base)
            if activityChanged {
                try await efforts.match(route)
                try await bestEfforts.update(route)
            }
            return ownerSummary(route)
        }
    }

    /// `DELETE /v1/routes/{id}`: the route with everything attached to it (see `RouteRemoval`).
    func delete(_ request: Request, _ context: AppRequestContext) async throws -> NoContent {
        try await withOwnedRoute(try context.parameters.require("id"), request) { route in
            try await removal.remove(route)
        }
        return NoContent()
    }
}
