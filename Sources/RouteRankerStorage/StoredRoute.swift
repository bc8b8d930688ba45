import RouteRankerModels

/// A route as its document in `routes` holds it: the record, and where its committed points are
/// (`PointLayout`: the writer ids of its full buckets, its open tail). The repository reads and
/// commits these; `PointBuckets` reads a route's points by its layout; `RouteIngest` builds the
/// next one. The layout is storage's alone: what a route is (`RouteRecord`) says nothing of
/// buckets, and nothing outside this target reads or sets one.
///
/// The record's fields read and write through it as its own (`route.name`, `route.accumulator`), so
/// that code which reads a route and hands it back for its points or its next commit holds this
/// one value, layout and record of the same version.
@dynamicMemberLookup
package struct StoredRoute: Sendable, Equatable {
    package var record: RouteRecord
    /// Where the committed points are: set when the route is read, and by `RouteIngest` alone.
    var layout: PointLayout

    init(_ record: RouteRecord, layout: PointLayout) {
        self.record = record
        self.layout = layout
    }

    /// A route not stored yet (its `version` 0): no points, no buckets.
    package init(new record: RouteRecord) {
        self.init(record, layout: PointLayout())
    }

    package subscript<Value>(dynamicMember field: KeyPath<RouteRecord, Value>) -> Value {
        record[keyPath: field]
    }

    package subscript<Value>(dynamicMember field: WritableKeyPath<RouteRecord, Value>) -> Value {
        get { record[keyPath: field] }
        set { record[keyPath: field] = newValue }
    }
}

/// The record's own, spelled out: a protocol's requirements are not met through dynamic members.
extension StoredRoute: RouteReaders {
    package var owner: String {
        get { record.owner }
        set { record.owner = newValue }
    }
    package var readers: [String] {
        get { record.readers }
        set { record.readers = newValue }
    }
}
