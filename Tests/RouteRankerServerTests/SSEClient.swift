import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A Server-Sent Events client over a plain socket, reading on a thread of its own (the test
/// clients collect whole bodies; a live stream never ends on its own). It de-chunks the body,
/// parses events as the SSE rules say, and records them; the test waits for what it expects.
final class SSEClient: Sendable {
    struct Event: Sendable, Equatable {
        var event: String
        var id: String?
        var data: String

        /// The `data` as a JSON object.
        var json: JSONObject {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? JSONObject ?? [:]
        }
    }

    private struct State {
        var status: Int?
        var body = ""
        var events: [Event] = []
        var comments = 0
        var ended = false
        /// The socket is closed: its number may already belong to another connection of this process.
        var closed = false
    }
    private let state = Mutex(State())
    private let socket: Int32

    /// Opens `path` with the given headers and starts reading.
    init(port: Int, path: String, headers: [String: String] = [:]) throws {
        socket = try LoopbackSocket.connect(port: port, timeout: 60, sendTimeout: false)
        var head = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8)
        guard bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
        else { throw TestFailure("send() failed") }
        let fd = socket
        Thread { [self] in read(fd) }.start()
    }

    deinit { close() }

    /// Closes the connection (the server sees the follower leave). Only shuts the socket down, under
    /// the lock: the reader thread closes it, and a closed number is soon reused by another socket in
    /// this process (a test server's listener, say), which a late `shutdown` would cut.
    func close() {
        state.withLock { state in
            if !state.closed { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    var status: Int? { state.withLock { $0.status } }
    var body: String { state.withLock { $0.body } }
    var events: [Event] { state.withLock { $0.events } }
    var comments: Int { state.withLock { $0.comments } }
    /// The server ended the stream (or the connection).
    var ended: Bool { state.withLock { $0.ended } }

    /// The points of all `points` events, in order.
    var points: [JSONObject] {
        events.filter { $0.event == "points" }.flatMap { $0.json["points"] as? [JSONObject] ?? [] }
    }

    /// Waits up to `seconds` for `condition`; whether it came true.
    func wait(seconds: Double = 5, until condition: (SSEClient) -> Bool) async -> Bool {
        let deadline = Date.now.addingTimeInterval(seconds)
        while Date.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }

    private func read(_ fd: Int32) {
        var raw: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headDone = false
        var chunked = false
        var decoded: [UInt8] = []
        var parser = EventParser()
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            raw += buffer[0..<n]
            if !headDone {
                guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                state.withLock { $0.status = status }
                chunked = head.lowercased().contains("transfer-encoding: chunked")
                raw.removeSubrange(..<end.upperBound)
                headDone = true
            }
            var finished = false
            if chunked {
                // Take every complete chunk; a zero-size chunk ends the body.
                while let line = raw.firstRange(of: Array("\r\n".utf8)),
                    let size = Int(String(decoding: raw[..<line.lowerBound], as: UTF8.self), radix: 16)
                {
                    if size == 0 {
                        finished = true
                        break
                    }
                    guard raw.count >= line.upperBound + size + 2 else { break }
                    decoded += raw[line.upperBound..<(line.upperBound + size)]
                    raw.removeSubrange(..<(line.upperBound + size + 2))
                }
            } else {
                decoded += raw
                raw.removeAll()
            }
            let text = String(decoding: decoded, as: UTF8.self)
            if let lastNewline = decoded.lastIndex(of: 10) {
                let complete = String(decoding: decoded[...lastNewline], as: UTF8.self)
                decoded.removeSubrange(...lastNewline)
                let (events, comments) = parser.feed(complete)
                state.withLock { state in
                    state.events += events
                    state.comments += comments
                    state.body += complete
                }
            } else if state.withLock({ $0.status }) != 200 {
                state.withLock { $0.body += text }
                decoded.removeAll()
            }
            if finished { break }
        }
        state.withLock { state in
            state.ended = true
            state.closed = true
            Glibc.close(fd)
        }
    }
}

/// The SSE line rules: `event:`, `id:`, `data:` fields, comments, a blank line dispatching.
private struct EventParser {
    var event: String?
    var id: String?
    var data: [String] = []
    var hasData = false

    mutating func feed(_ text: String) -> ([SSEClient.Event], Int) {
        var events: [SSEClient.Event] = []
        var comments = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.isEmpty {
                if hasData {
                    events.append(
                        SSEClient.Event(event: event ?? "message", id: id, data: data.joined(separator: "\n")))
                }
                event = nil
                data = []
                hasData = false
            } else if line.hasPrefix(":") {
                comments += 1
            } else {
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                var value = parts.count > 1 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch parts[0] {
                case "event": event = value
                case "id": id = value
                case "data":
                    data.append(value)
                    hasData = true
                default: break
                }
            }
        }
        return (events, comments)
    }
}
