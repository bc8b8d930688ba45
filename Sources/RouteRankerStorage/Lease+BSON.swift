import Foundation
import Mongo
import RouteRankerModels

extension Lease {
    /// The condition on a stored lease's end for the leases that have run out by `now`
    /// (`hasRunOut(by:)` in the database's words), so that a query picks exactly the claims a
    /// process may take over.
    static func runOut(by now: Date) -> BSONValue { ["$lte": .date(now)] }
}
