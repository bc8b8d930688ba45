import Foundation

/// A group: `{"id","name","routes","created_at"}`, `routes` being the ids of the members still
/// visible to the owner, in group order.
package struct GroupView: Encodable {
    package var id: String
    package var name: String
    package var routes: [String]
    package var createdAt: Date

    package init(id: String, name: String, routes: [String], createdAt: Date) {
        self.id = id
        self.name = name
        self.routes = routes
        self.createdAt = createdAt
    }
}

/// `GET /v1/groups/{id}`: the same object with route summaries in `routes`.
package struct GroupDetailView: Encodable {
    package var id: String
    package var name: String
    package var routes: [RouteSummary]
    package var createdAt: Date

    package init(id: String, name: String, routes: [RouteSummary], createdAt: Date) {
        self.id = id
        self.name = name
        self.routes = routes
        self.createdAt = createdAt
    }
}
