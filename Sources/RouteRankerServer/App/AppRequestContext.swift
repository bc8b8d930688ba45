import Hummingbird
import Logging
import NIOCore

/// The request context of every handler. RouteRanker keeps no per-request state beyond what
/// Hummingbird tracks: handlers authenticate explicitly, so that who may do what reads in the handler.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's connection: a live stream closes it to cut off a follower that stopped reading.
    let channel: (any Channel)?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// JSON and GPX bodies may be up to 16 MiB (the contract's limit, enforced in `collectBody`).
    public var maxUploadSize: Int { Limits.maxBodyBytes }
}
