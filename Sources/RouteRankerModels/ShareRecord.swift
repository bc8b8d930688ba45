import Foundation

/// A route shared with a user, as stored in `shares` (`_id` `"<route>:<to>"`).
package struct ShareRecord: Sendable, Equatable {
    package var route: String
    package var owner: String
    package var to: String
    package var sharedAt: Date

    package init(route: String, owner: String, to: String, sharedAt: Date) {
        self.route = route
        self.owner = owner
        self.to = to
        self.sharedAt = sharedAt
    }
}
