// No Hummingbird here: Fuzz/Sources/FuzzTargets/Server links this file, to fuzz what uses it.

/// Errors of the domain, thrown below the controllers; `APIError(mapping:)` turns each into the
/// contract's answer.

/// A value a client sent breaks a rule (`400`): `field` names it, `index` and `key` the element.
struct InvalidInput: Error, Sendable {
    var message: String
    var field: String?
    var index: Int?
    var key: String?

    init(_ message: String, field: String? = nil, index: Int? = nil, key: String? = nil) {
        self.message = message
        self.field = field
        self.index = index
        self.key = key
    }
}

/// The route is absent or not visible to the caller: the same `404` either way.
struct RouteNotVisible: Error, Sendable {}

/// The group is absent or not the caller's: the same `404` either way.
struct GroupNotVisible: Error, Sendable {}

/// The caller may read the route but only its owner may do this (`403`).
struct NotRouteOwner: Error, Sendable {}

/// The request would take a route past the most points a route may hold (`413`).
struct PointLimitExceeded: Error, Sendable {
    var limit: Int
}

/// `similar` (and `similar_to`) compares routes up to a length (`422`): see `SimilarRoutes`.
struct RouteTooLongToCompare: Error, Sendable {
    var limitM: Double
}

/// Comparing the anchor with its `candidates` would scan more than one request may (`422`).
struct ComparisonTooLarge: Error, Sendable {
    var candidates: Int
}

/// A share link's secret is unknown, expired or revoked, or its route is gone: the same `404`.
struct LinkNotUsable: Error, Sendable {}

/// The share link page of an unusable secret: the same `404`, as a page for people.
struct LinkPageGone: Error, Sendable {}
/// The segment does not exist: the one `404` of segments.
struct SegmentNotFound: Error, Sendable {}

/// The caller may read the segment but only its owner may do this (`403`).
struct NotSegmentOwner: Error, Sendable {}
