/// What the one visibility rule reads of a route: its owner and the users it is shared with.
/// A route record and the figures of group statistics both carry them, so the rule is written
/// once, here, and applied by `RouteAccess` alone (`scripts/check-access` fails CI on a second
/// caller).
package protocol RouteReaders {
    /// The user the route belongs to.
    var owner: String { get }
    /// The users the route is shared with (`RouteRecord.readers`).
    var readers: [String] { get }
}

extension RouteReaders {
    /// The contract's second hash check: the route is `user`'s own or is shared with them.
    package func isReadable(by user: String) -> Bool { owner == user || readers.contains(user) }
}

extension RouteRecord: RouteReaders {}
