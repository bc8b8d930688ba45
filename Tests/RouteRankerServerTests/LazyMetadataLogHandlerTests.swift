import Logging
import Synchronization
import Testing

@testable import RouteRankerServer

/// The server's log handler writes swift-log's stream lines, with the metadata each logger holds
/// when the line is written, and keeps metadata a value of each logger.
@Suite struct LazyMetadataLogHandlerTests {
    /// The lines a `StreamLogHandler` writes, kept for the test to read.
    final class Lines: TextOutputStream, Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    private static func logger(_ lines: Lines) -> Logger {
        Logger(label: "test") { label in LazyMetadataLogHandler(StreamLogHandler(label: label, stream: lines)) }
    }

    @Test func aLineCarriesTheMetadataSetBeforeIt() {
        let lines = Lines()
        var logger = Self.logger(lines)
        logger.logLevel = .info
        logger[metadataKey: "hb.request.id"] = "r-1"
        logger[metadataKey: "route"] = "/v1/routes"
        logger.info("first")
        logger[metadataKey: "route"] = nil
        logger.notice("second")
        let written = lines.all.split(separator: "\n")
        #expect(written.count == 2)
        #expect(written[0].hasSuffix("info test: hb.request.id=r-1 route=/v1/routes [RouteRankerServerTests] first"))
        #expect(written[1].hasSuffix("notice test: hb.request.id=r-1 [RouteRankerServerTests] second"))
    }

    /// A handler that counts the times its metadata is set.
    struct CountingHandler: LogHandler {
        let counter: Counter
        let lines: Lines
        var logLevel: Logger.Level = .info
        var metadataProvider: Logger.MetadataProvider?
        var metadata: Logger.Metadata = [:] {
            didSet { counter.sets.withLock { $0 += 1 } }
        }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let provided = metadataProvider?.get() ?? [:]
            let all = metadata.merging(provided) { own, _ in own }.sorted { $0.key < $1.key }
            lines.write("\(event.message) \(all.map { "\($0.key)=\($0.value)" }.joined(separator: " "))\n")
        }
    }

    final class Counter: Sendable {
        let sets = Mutex(0)
    }

    @Test func theWrappedHandlerSeesMetadataOnlyWhenALineIsWritten() {
        let lines = Lines()
        let counter = Counter()
        var logger = Logger(label: "test") { _ in
            LazyMetadataLogHandler(CountingHandler(counter: counter, lines: lines))
        }
        let before = counter.sets.withLock { $0 }
        for request in 0..<100 {
            logger[metadataKey: "hb.request.id"] = "\(request)"
            logger.debug("below the level")
        }
        #expect(counter.sets.withLock { $0 } == before)
        logger.info("written")
        #expect(counter.sets.withLock { $0 } == before + 1)
        #expect(lines.all == "written hb.request.id=99\n")
    }

    @Test func aMetadataProviderReachesTheLines() {
        let lines = Lines()
        let provider = Logger.MetadataProvider { ["trace": "t-7"] }
        var logger = Logger(label: "test") { label in
            LazyMetadataLogHandler(StreamLogHandler(label: label, stream: lines, metadataProvider: provider))
        }
        logger[metadataKey: "own"] = "yes"
        logger.info("provided")
        #expect(lines.all.hasSuffix("info test: own=yes trace=t-7 [RouteRankerServerTests] provided\n"))
    }

    @Test func metadataIsEachLoggersOwnAndLevelsStillFilter() {
        let lines = Lines()
        var first = Self.logger(lines)
        first.logLevel = .warning
        first[metadataKey: "who"] = "first"
        var second = first
        second[metadataKey: "who"] = "second"
        #expect(first[metadataKey: "who"] == "first")
        first.info("below the level")
        first.warning("one")
        second.error("two", metadata: ["extra": "yes"])
        let written = lines.all.split(separator: "\n")
        #expect(written.count == 2)
        #expect(written[0].hasSuffix("warning test: who=first [RouteRankerServerTests] one"))
        #expect(written[1].hasSuffix("error test: extra=yes who=second [RouteRankerServerTests] two"))
    }
}
