import Logging
import Mongo

/// The one change stream of this server process, turned into `RouteChange`s: every committed change
/// of `routes` (with the document after it), the deletion of shares and links, and changes of users
/// (their privacy zones). A database-wide stream filtered to those, rather than one per collection,
/// so that one thread and one connection serve them all, in the order the database committed them.
///
/// Events carry ids only. The document after a route's change is read by this feed, and only for
/// routes someone here follows: with `fullDocument: "updateLookup"` the database would read and
/// send every changed route to every server process, whether anybody follows it or not.
struct RouteChangeFeed: Sendable {
    /// The server's `getMore` wait: bounds how long stopping takes, not delivery latency.
    static let maxAwaitTimeMS = 250

    /// Only what followers act on, and of each event only what says which document changed.
    static let pipeline: [BSONDocument] = [
        [
            "$match": [
                "$or": [
                    ["ns.coll": "routes", "operationType": ["$in": ["insert", "update", "replace", "delete"]]],
                    ["ns.coll": ["$in": ["shares", "links"]], "operationType": "delete"],
                    ["ns.coll": "users", "operationType": ["$in": ["update", "replace"]]],
                ]
            ]
        ],
        ["$project": ["operationType": 1, "ns": 1, "documentKey": 1]],
    ]

    let stream: MongoChangeStream

    /// A feed of `database` that hands each change to `deliver` on the stream's thread, in order.
    /// Route documents are decoded only for routes `isFollowed` says someone here follows.
    init(
        database: MongoDatabase, logger: Logger, isFollowed: @escaping @Sendable (String) -> Bool,
        deliver: @escaping @Sendable (RouteChange) -> Void
    ) {
        let lookup = Lookup()
        stream = MongoChangeStream(
            database: database, pipeline: Self.pipeline, maxAwaitTimeMS: Self.maxAwaitTimeMS, logger: logger
        ) { event in
            switch event {
            case .restarted: deliver(.resynchronize)
            case .change(let document):
                let read = { (id: String) in try lookup.stream?.lookup("routes", id: .string(id)) }
                if let change = Self.change(document, logger: logger, isFollowed: isFollowed, read: read) {
                    deliver(change)
                }
            }
        }
        lookup.stream = stream
    }

    /// The stream, for its event handler, which is made before the stream is.
    private final class Lookup: @unchecked Sendable {
        /// Set once, before the stream starts; read on its thread only.
        var stream: MongoChangeStream?
    }

    func start() { stream.start() }

    /// Stops the stream's thread; blocks for up to `maxAwaitTimeMS`.
    func stop() { stream.stop() }

    /// The domain meaning of one change event, or nil for one followers do not care about. `read`
    /// reads a route as committed now.
    static func change(
        _ event: BSONDocument, logger: Logger, isFollowed: (String) -> Bool, read: (String) throws -> BSONDocument?
    ) -> RouteChange? {
        guard let collection = event.document("ns")?.string("coll"),
            let operation = event.string("operationType"), let id = event.document("documentKey")?.string("_id")
        else { return nil }
        switch (collection, operation) {
        case ("routes", "delete"):
            return .deleted(route: id)
        case ("routes", _):
            guard isFollowed(id) else { return nil }
            let document: BSONDocument?
            do {
                document = try read(id)
            } catch {
                // Its followers read it themselves (and end their streams if they cannot).
                logger.warning("change stream: cannot read a changed route", metadata: ["route": "\(id)"])
                return .unread(route: id)
            }
            // Without a document (deleted meanwhile), a delete event follows.
            guard let document else { return nil }
            do {
                return .committed(try RouteRecord(document: document))
            } catch {
                logger.error("change stream: unreadable route", metadata: ["route": "\(id)"])
                return nil
            }
        case ("shares", _):
            guard let (route, user) = ShareRepository.parts(ofID: id) else { return nil }
            return .shareRevoked(route: route, user: user)
        case ("links", _):
            return .linkRevoked(link: id)
        case ("users", _):
            return .userChanged(user: id)
        default:
            return nil
        }
    }
}
