import Foundation

/// A group: `{"id","name","routes","created_at"}`, `routes` being the ids of the members still
/// visible to the owner, in group order.
struct GroupView: APIResponse {
    var id: String
    var name: String
    var routes: [String]
    var createdAt: Date
}

/// `GET /v1/groups/{id}`: the same object with route summaries in `routes`.
struct GroupDetailView: APIResponse {
    var id: String
    var name: String
    var routes: [RouteSummary]
    var createdAt: Date
}
