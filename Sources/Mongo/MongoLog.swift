import CLibMongoC
import Logging

/// Process-wide libmongoc set-up: `mongoc_init` exactly once, and libmongoc's log sent to swift-log.
enum MongoRuntime {
    /// Swift runs a global's initializer once, thread-safely, on first use: that is our `pthread_once`.
    /// There is no matching `mongoc_cleanup`: it must not run while any pool exists, and the process
    /// exit reclaims everything anyway.
    private static let initialized: Bool = {
        mongoc_init()
        mongoc_log_set_handler(mongocLogHandler, nil)
        return true
    }()

    /// Logs libmongoc's messages under this label; its levels map onto swift-log's.
    static let logger = Logger(label: "Mongo.libmongoc")

    /// Initializes libmongoc if nothing has yet. Every entry point into the driver calls this.
    static func initializeOnce() {
        _ = initialized
    }
}

/// libmongoc calls this from any of its threads (including the pool's background monitor), so it
/// touches only the immutable, thread-safe `Logger`.
private func mongocLogHandler(
    level: mongoc_log_level_t,
    domain: UnsafePointer<CChar>?,
    message: UnsafePointer<CChar>?,
    userData: UnsafeMutableRawPointer?
) {
    var swiftLevel: Logger.Level
    switch level {
    case MONGOC_LOG_LEVEL_ERROR: swiftLevel = .error
    case MONGOC_LOG_LEVEL_CRITICAL: swiftLevel = .critical
    case MONGOC_LOG_LEVEL_WARNING: swiftLevel = .warning
    case MONGOC_LOG_LEVEL_MESSAGE: swiftLevel = .notice
    case MONGOC_LOG_LEVEL_INFO: swiftLevel = .info
    case MONGOC_LOG_LEVEL_DEBUG: swiftLevel = .debug
    default: swiftLevel = .trace
    }
    let logger = MongoRuntime.logger
    guard logger.logLevel <= swiftLevel else { return }
    let text = message.map { String(cString: $0) } ?? ""
    // A failed write inside a transaction has already aborted it on the server, so the abort we send
    // afterwards (to cover errors thrown by the caller's own code) is refused; that is expected.
    if swiftLevel == .warning && text.hasPrefix("Error in abortTransaction") {
        swiftLevel = .debug
        guard logger.logLevel <= swiftLevel else { return }
    }
    let domainText = domain.map { String(cString: $0) } ?? "mongoc"
    logger.log(level: swiftLevel, "\(text)", metadata: ["mongoc.domain": "\(domainText)"])
}
