/// Errors of the domain, thrown below the controllers; `APIError(mapping:)` turns each into the
/// contract's answer.

/// A value a client sent breaks a rule (`400`): `field` names it, `index` and `key` the element.
package struct InvalidInput: Error, Sendable {
    package var message: String
    package var field: String?
    package var index: Int?
    package var key: String?

    package init(_ message: String, field: String? = nil, index: Int? = nil, key: String? = nil) {
        self.message = message
        self.field = field
        self.index = index
        self.key = key
    }
}

/// The route is absent or not visible to the caller: the same `404` either way.
package struct RouteNotVisible: Error, Sendable {
    package init() {}
}

/// The group is absent or not the caller's: the same `404` either way.
package struct GroupNotVisible: Error, Sendable {
    package init() {}
}

/// The caller may read the route but only its owner may do this (`403`).
package struct NotRouteOwner: Error, Sendable {
    package init() {}
}

/// The request would take a route past the most points a route may hold (`413`).
package struct PointLimitExceeded: Error, Sendable {
    package var limit: Int

    package init(limit: Int) {
        self.limit = limit
    }
}

/// The request would take a route past the most annotations a route may hold (`413`).
package struct AnnotationLimitExceeded: Error, Sendable {
    package var limit: Int

    package init(limit: Int) {
        self.limit = limit
    }
}

/// `similar` (and `similar_to`) compares routes up to a length (`422`): see `SimilarRoutes`.
package struct RouteTooLongToCompare: Error, Sendable {
    package var limitM: Double

    package init(limitM: Double) {
        self.limitM = limitM
    }
}

/// Comparing the anchor with its `candidates` would scan more than one request may (`422`).
package struct ComparisonTooLarge: Error, Sendable {
    package var candidates: Int

    package init(candidates: Int) {
        self.candidates = candidates
    }
}

/// A share link's secret is unknown, expired or revoked, or its route is gone: the same `404`.
package struct LinkNotUsable: Error, Sendable {
    package init() {}
}

/// The share link page of an unusable secret: the same `404`, as a page for people.
package struct LinkPageGone: Error, Sendable {
    package init() {}
}
/// The segment does not exist: the one `404` of segments.
package struct SegmentNotFound: Error, Sendable {
    package init() {}
}

/// The caller may read the segment but only its owner may do this (`403`).
package struct NotSegmentOwner: Error, Sendable {
    package init() {}
}
