import Hummingbird
import Logging

/// The request context of every handler. RouteRanker keeps no per-request state beyond what
/// Hummingbird tracks: handlers authenticate explicitly, so that who may do what reads in the handler.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// JSON and GPX bodies may be up to 16 MiB (the contract's limit, enforced in `collectBody`).
    public var maxUploadSize: Int { Limits.maxBodyBytes }
}
