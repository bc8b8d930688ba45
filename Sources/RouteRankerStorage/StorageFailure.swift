import Mongo

/// A database failure as the app acts on it, without the driver's types: the one error → HTTP
/// mapping (`APIError`) asks this what a failure of a repository call means.
package enum StorageFailure: Equatable, Sendable {
    /// The database cannot be reached or cannot take the operation now; retrying later may work.
    case unavailable
    /// Refused without trying: too many operations already wait for a database connection.
    case overloaded

    /// What `error` means, or nil when it is not a database failure the app treats specially.
    package init?(_ error: any Error) {
        switch error {
        case MongoError.unavailable: self = .unavailable
        case MongoError.overloaded: self = .overloaded
        default: return nil
        }
    }
}

/// The route a first commit was to create exists already: another writer created it first.
package struct RouteAlreadyExists: Error, Sendable {
    package init() {}
}
