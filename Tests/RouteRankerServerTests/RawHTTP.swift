import Foundation
import HummingbirdTesting
import Logging
import RouteRankerServer
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Like `withApp`, on a live server listening on a local port (for `RawHTTP`).
func withLiveApp(_ body: @Sendable (any TestClientProtocol, Int) async throws -> Void) async throws {
    var logger = Logger(label: "routeranker-test")
    logger.logLevel = .warning
    let configuration = AppConfiguration(
        mongoDBURI: TestEnvironment.mongoURI, database: TestEnvironment.uniqueDatabaseName("server"),
        clock: .distinctMilliseconds())
    try await TestAppGate.withSlot {
        let app = try buildApplication(configuration, logger: logger)
        try await app.test(.live) { client in
            guard let port = client.port else { throw TestFailure("the live test client has no port") }
            try await body(client, port)
        }
    }
}

/// A minimal HTTP/1.1 client over a plain socket, on a thread of its own, for what the test clients
/// cannot do: send a body as `Transfer-Encoding: chunked` in the pieces given, with a pause after
/// each, or stop half-way and close the connection like a phone losing its signal.
enum RawHTTP {
    /// An answer: its status, head and body (de-chunked if need be).
    struct Reply: Sendable {
        var status: Int
        var head: String
        var body: String
        /// What followed the head, as it came (not de-chunked): the next answer, after a `HEAD`.
        var rest: String = ""

        /// The value of the header `name` (case-insensitive), if the head has it.
        func header(_ name: String) -> String? {
            head.split(separator: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// POSTs `chunks` to `path`; with `cutAfter: n` closes the connection after `n` chunks (no reply).
    static func post(
        port: Int, path: String, headers: [String: String], chunks: [[UInt8]], cutAfter: Int? = nil
    ) async throws -> Reply? {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result { try exchange(port, path, headers, chunks, cutAfter) })
            }
            thread.start()
        }
    }

    private static func exchange(
        _ port: Int, _ path: String, _ headers: [String: String], _ chunks: [[UInt8]], _ cutAfter: Int?
    ) throws -> Reply? {
        let fd = try LoopbackSocket.connect(port: port, timeout: 15, sendTimeout: false)
        defer { close(fd) }
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))

        var head = "POST \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try send(fd, Array((head + "\r\n").utf8))
        for (i, chunk) in chunks.enumerated() {
            if i == cutAfter { return nil }
            try send(fd, Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8))
            usleep(20_000)
        }
        if cutAfter != nil { return nil }
        try send(fd, Array("0\r\n\r\n".utf8))
        return try parse(LoopbackSocket.readToEnd(fd))
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send() failed") }
            offset += n
        }
    }

    /// Status, head and body of a response read to the end of the connection (body de-chunked if
    /// need be).
    static func parse(_ bytes: [UInt8]) throws -> Reply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw TestFailure("no response: \(text.prefix(200))") }
        let head = String(text[..<split.lowerBound])
        var body = String(text[split.upperBound...])
        let rest = body
        guard let status = head.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw TestFailure("bad status line: \(head.prefix(100))")
        }
        if head.lowercased().contains("transfer-encoding: chunked") {
            var plain = ""
            var rest = Substring(body)
            while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
                let start = line.upperBound
                let end = rest.utf8.index(start, offsetBy: size)
                plain += rest[start..<end]
                rest = rest[end...].dropFirst(2)
            }
            body = plain
        }
        return Reply(status: status, head: head, body: body, rest: rest)
    }
}
