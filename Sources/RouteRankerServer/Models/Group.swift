import Foundation

/// `POST /v1/groups` body: `routes`, or `similar_to` (with an optional `max_m`).
struct GroupCreateRequest: Decodable {
    var name: String?
    var routes: [String]?
    var similarTo: String?
    var maxM: Double?

    private enum CodingKeys: String, CodingKey {
        case name, routes
        case similarTo = "similar_to"
        case maxM = "max_m"
    }
}

/// `PATCH /v1/groups/{id}` body.
struct GroupChangeRequest: Decodable {
    var name: String?
    var add: [String]?
    var remove: [String]?
}

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
