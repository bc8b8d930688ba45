// No imports: Fuzz/Sources/FuzzTargets/Server links here, to fuzz it.

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
