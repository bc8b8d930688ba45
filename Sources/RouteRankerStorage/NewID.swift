import Mongo

/// Ids for new routes, groups, links and bucket writers: MongoDB ObjectIds in hex, which grow with
/// time (newest-first lists break ties on them) and never repeat.
package enum NewID {
    package static func make() -> String { BSONObjectID().hex }
}
