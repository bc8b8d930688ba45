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
