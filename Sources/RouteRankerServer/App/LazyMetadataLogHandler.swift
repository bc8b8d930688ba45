import Logging

/// A log handler that keeps its metadata aside and gives it to `base` only when a message is
/// logged.
///
/// swift-log's `StreamLogHandler` formats its metadata into text on every change. Hummingbird
/// sets a request id on every request's logger, so each request paid for that text (2–3 % of a
/// route summary's CPU, `perf`) although at the default level almost nothing is logged. The lines
/// written are `base`'s, unchanged.
public struct LazyMetadataLogHandler<Base: LogHandler>: LogHandler {
    private var base: Base

    /// This handler's metadata; `base` sees it when a message is logged.
    public var metadata: Logger.Metadata

    /// Wraps `base`, taking over its metadata.
    public init(_ base: Base) {
        self.base = base
        self.metadata = base.metadata
    }

    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var base = base
        base.metadata = metadata
        base.log(event: event)
    }
}
