import RouteRankerModels

/// What followers of live routes need to know about a change in the database, as the change
/// stream reports it (`RouteChangeFeed` makes these from change events; `LiveHub` fans them out).
package enum RouteChange: Sendable {
    /// The route as committed: created, appended to, finished, renamed.
    case committed(StoredRoute)
    /// The route was deleted.
    case deleted(route: String)
    /// The share of `route` with `user` was revoked.
    case shareRevoked(route: String, user: String)
    /// The share link `link` was revoked.
    case linkRevoked(link: String)
    /// The user's document changed (e.g. their privacy zones): the views of their routes may have.
    case userChanged(user: String)
    /// The feed had to start afresh: changes may have been missed, so every follower re-reads.
    case resynchronize
}
