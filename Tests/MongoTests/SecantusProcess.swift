import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A SecantusDB server of the test's own, on a free port with a temporary data directory, for tests
/// that stop and restart the database. The binary is `$SECANTUSD`, else the package's
/// `.venv/bin/secantusd-py` (made by scripts/setup), else `/tmp/sdbvenv/bin/secantusd-py`.
final class SecantusProcess {
    let port: Int
    let dataDirectory: URL
    private var process: Process?

    var uri: String { "mongodb://127.0.0.1:\(port)/" }

    init() throws {
        port = try Self.freePort()
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mongo-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    static var executable: String {
        if let path = ProcessInfo.processInfo.environment["SECANTUSD"], !path.isEmpty { return path }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let local = packageRoot.appendingPathComponent(".venv/bin/secantusd-py").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : "/tmp/sdbvenv/bin/secantusd-py"
    }

    /// Starts the server (never `--standalone`: it must be a replica set) and waits until it accepts
    /// connections.
    func start(timeout: Double = 30) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "--host", "127.0.0.1", "--port", String(port), "--storage-path", dataDirectory.path, "--log-level", "WARNING",
        ]
        let log = dataDirectory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        self.process = process
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !Self.accepts(port: port) {
            guard process.isRunning, Date() < deadline else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw StartFailure(description: "SecantusDB (\(Self.executable)) did not start on port \(port):\n\(output)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Kills the server the hard way (SIGKILL, like a crash) and waits for it to exit.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A port nothing listens on now: bind port 0, read what the kernel chose, close.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartFailure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                bind(fd, sockaddrPointer, length) == 0 && getsockname(fd, sockaddrPointer, &length) == 0
            }
        }
        guard bound else { throw StartFailure(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True if something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
