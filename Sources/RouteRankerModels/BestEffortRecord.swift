import Foundation
import RouteRankerCore

/// One stored best effort (API.md "Best efforts, records and the training log"): the fastest
/// stretch of one standard distance inside one finished route, in `best_efforts`.
///
/// Times are whole milliseconds, as the contract reports and compares them: integers, so that
/// records, ranks and ties are exact comparisons in the database and here alike.
package struct BestEffortRecord: Sendable, Equatable {
    package var route: String
    /// The route's owner (routes never change owner): records and rankings group by person.
    package var owner: String
    /// The route's activity when the effort was computed (a change recomputes it).
    package var activity: Activity
    /// The distance's name, e.g. `5k`.
    package var distance: String
    package var distanceM: Double
    /// `elapsed_s` in milliseconds.
    package var elapsedMS: Int64
    /// `start_t` in milliseconds since 1970.
    package var startMS: Int64
    /// `end_t` in milliseconds since 1970.
    package var endMS: Int64
    /// The route's version the effort was computed from.
    package var version: Int

    package init(
        route: String, owner: String, activity: Activity, distance: String, distanceM: Double, elapsedMS: Int64,
        startMS: Int64, endMS: Int64, version: Int
    ) {
        self.route = route
        self.owner = owner
        self.activity = activity
        self.distance = distance
        self.distanceM = distanceM
        self.elapsedMS = elapsedMS
        self.startMS = startMS
        self.endMS = endMS
        self.version = version
    }

    /// The stored form of Core's effort for `route`.
    package init(_ effort: BestEffort, route: RouteRecord) {
        self.init(
            route: route.id, owner: route.owner, activity: route.activity, distance: effort.distance,
            distanceM: effort.distanceMetres, elapsedMS: Self.milliseconds(effort.elapsedRounded),
            startMS: Self.milliseconds(effort.startTRounded), endMS: Self.milliseconds(effort.endTRounded),
            version: route.version)
    }

    package var elapsedS: Double { Double(elapsedMS) / 1000 }
    package var startT: Double { Double(startMS) / 1000 }
    package var endT: Double { Double(endMS) / 1000 }
    /// `achieved_at`: when the effort started.
    package var achievedAt: Date { Date(timeIntervalSince1970: startT) }

    /// Whether this effort ranks before `other` of the same distance: faster, then earlier, then
    /// by route id (two uploads of one recording tie on both).
    package func precedes(_ other: BestEffortRecord) -> Bool {
        (elapsedMS, startMS, route) < (other.elapsedMS, other.startMS, other.route)
    }

    /// Seconds already rounded to the millisecond, as an exact integer count of milliseconds.
    static func milliseconds(_ seconds: Double) -> Int64 { (seconds * 1000).clampedInt64(in: .min ... .max) }
}
