import Logging
import Mongo
import RouteRankerModels

/// The one change stream of this server process, turned into `RouteChange`s: every committed change
/// of `routes` (with the document after it), the deletion of shares and links, and changes of users
/// (their privacy zones). A database-wide stream filtered to those, rather than one per collection,
/// so that one thread and one connection serve them all, in the order the database committed them.
package struct RouteChangeFeed: Sendable {
    /// The server's `getMore` wait: bounds how long stopping takes, not delivery latency.
    package static let maxAwaitTimeMS = 250

    /// Only what followers act on; of a route, the fields a `StoredRoute` needs (not the cached extent).
    package static let pipeline: [BSONDocument] = [
        [
            "$match": [
                "$or": [
                    ["ns.coll": "routes", "operationType": ["$in": ["insert", "update", "replace", "delete"]]],
                    ["ns.coll": ["$in": ["shares", "links"]], "operationType": "delete"],
                    ["ns.coll": "users", "operationType": ["$in": ["update", "replace"]]],
                ]
            ]
        ],
        ["$project": ["operationType": 1, "ns": 1, "documentKey": 1, "fullDocument": 1]],
    ]

    package let stream: MongoChangeStream

    /// A feed of `database` that hands each change to `deliver` on the stream's thread, in order.
    /// Route documents are decoded only for routes `isFollowed` says someone here follows.
    package init(
        database: MongoDatabase, logger: Logger, isFollowed: @escaping @Sendable (String) -> Bool,
        deliver: @escaping @Sendable (RouteChange) -> Void
    ) {
        stream = MongoChangeStream(
            database: database, pipeline: Self.pipeline, fullDocument: "updateLookup",
            maxAwaitTimeMS: Self.maxAwaitTimeMS, logger: logger
        ) { event in
            switch event {
            case .restarted: deliver(.resynchronize)
            case .change(let document):
                if let change = Self.change(document, logger: logger, isFollowed: isFollowed) { deliver(change) }
            }
        }
    }

    package func start() { stream.start() }

    /// Stops the stream's thread; blocks for up to `maxAwaitTimeMS`.
    package func stop() { stream.stop() }

    /// The domain meaning of one change event, or nil for one followers do not care about.
    package static func change(_ event: BSONDocument, logger: Logger, isFollowed: (String) -> Bool) -> RouteChange? {
        guard let collection = event.document("ns")?.string("coll"),
            let operation = event.string("operationType"), let id = event.document("documentKey")?.string("_id")
        else { return nil }
        switch (collection, operation) {
        case ("routes", "delete"):
            return .deleted(route: id)
        case ("routes", _):
            // Without a document (deleted before the lookup), a delete event follows.
            guard isFollowed(id), let document = event.document("fullDocument") else { return nil }
            do {
                return .committed(try StoredRoute(document: document))
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

/// Opens `RouteChangeFeed`s of one database: what the live hub holds, so that it never sees the
/// database itself.
package struct RouteChangeFeeds: Sendable {
    let database: MongoDatabase

    package init(database: MongoDatabase) {
        self.database = database
    }

    /// A new feed, not started; see `RouteChangeFeed.init`.
    package func feed(
        logger: Logger, isFollowed: @escaping @Sendable (String) -> Bool,
        deliver: @escaping @Sendable (RouteChange) -> Void
    ) -> RouteChangeFeed {
        RouteChangeFeed(database: database, logger: logger, isFollowed: isFollowed, deliver: deliver)
    }
}
