import Foundation

/// A named group of routes, as stored in `groups`.
package struct GroupRecord: Sendable, Equatable {
    package var id: String
    package var owner: String
    package var name: String
    /// Member route ids in group order. A member that stops being visible stays here (and counts
    /// again if it becomes visible again); a deleted route is removed.
    package var routes: [String]
    package var createdAt: Date

    package init(id: String, owner: String, name: String, routes: [String], createdAt: Date) {
        self.id = id
        self.owner = owner
        self.name = name
        self.routes = routes
        self.createdAt = createdAt
    }
}
