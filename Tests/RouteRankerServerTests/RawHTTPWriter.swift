import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client that behaves like Python `requests` and most HTTP libraries: it writes the whole
/// request, head and body, with blocking writes before it reads a byte of the answer. A server
/// that answers early and then neither reads nor closes makes such a client hang, which is what
/// the early-answer tests look for (bounded by a send/receive timeout, so they fail, not hang).
enum BlockingHTTPClient {
    /// Sends `head` (without the blank line) and `bodySize` bytes of `filler` (or the given
    /// chunks as `Transfer-Encoding: chunked`), then reads the answer; `nil` if a write or read
    /// timed out or the connection was reset before an answer arrived.
    static func exchange(port: Int, head: String, bodySize: Int, chunked: Bool = false, timeout: Int = 30)
        async throws -> (status: Int, text: String)?
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result { try run(port, head, bodySize, chunked, timeout) })
            }.start()
        }
    }

    private static func run(_ port: Int, _ head: String, _ bodySize: Int, _ chunked: Bool, _ timeout: Int) throws
        -> (status: Int, text: String)?
    {
        let fd = try LoopbackSocket.connect(port: port, timeout: timeout)
        defer { close(fd) }
        guard write(fd, Array((head + "\r\n\r\n").utf8)) else { return nil }
        let piece = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        var left = bodySize
        while left > 0 {
            let n = min(left, piece.count)
            let framed =
                chunked
                ? Array((String(n, radix: 16) + "\r\n").utf8) + piece[0..<n] + Array("\r\n".utf8) : Array(piece[0..<n])
            guard write(fd, framed) else { return nil }
            left -= n
        }
        if chunked { guard write(fd, Array("0\r\n\r\n".utf8)) else { return nil } }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Read to the end of the connection, or of the answer when it says how long it is (a
        // keep-alive connection stays open after it).
        while !isComplete(received) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let status = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return (status, text)
    }

    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<split.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text[split.upperBound...].utf8.count >= length
    }

    /// Writes all of `bytes`; `false` on a timeout or a reset.
    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
