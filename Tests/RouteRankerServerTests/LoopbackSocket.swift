import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Plain TCP sockets to a test server on 127.0.0.1, for the clients that must do what the test
/// clients cannot (`RawHTTP`, `RawExchange`, `BlockingHTTPClient`, `SSEClient`).
enum LoopbackSocket {
    /// A socket connected to 127.0.0.1:`port`, whose reads (and writes, with `sendTimeout`) give up
    /// after `timeout` seconds; the caller closes it.
    static func connect(port: Int, timeout: Int, sendTimeout: Bool = true) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if sendTimeout { setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect() to port \(port) failed")
        }
        return fd
    }

    /// Everything `fd` receives until the peer closes the connection (or a read times out).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }
}
