/// `POST /v1/groups` body: `routes`, or `similar_to` (with an optional `max_m`).
package struct GroupCreateRequest: Decodable {
    package var name: String?
    package var routes: [String]?
    package var similarTo: String?
    package var maxM: Double?

    package init(name: String? = nil, routes: [String]? = nil, similarTo: String? = nil, maxM: Double? = nil) {
        self.name = name
        self.routes = routes
        self.similarTo = similarTo
        self.maxM = maxM
    }

    private enum CodingKeys: String, CodingKey {
        case name, routes
        case similarTo = "similar_to"
        case maxM = "max_m"
    }
}

/// `PATCH /v1/groups/{id}` body.
package struct GroupChangeRequest: Decodable {
    package var name: String?
    package var add: [String]?
    package var remove: [String]?

    package init(name: String? = nil, add: [String]? = nil, remove: [String]? = nil) {
        self.name = name
        self.add = add
        self.remove = remove
    }
}
