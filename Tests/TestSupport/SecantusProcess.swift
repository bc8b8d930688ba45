import Foundation

/// A SecantusDB server of a test's own, on a free port and a temporary data folder, that the test
/// can stop (`kill -9`, like a crash) and start again on the same port and data.
public final class SecantusProcess: @unchecked Sendable {
    // Only the test that owns the process touches it, one call at a time.
    public let port: Int
    public let dataPath: URL
    /// Whether the server takes `configureFailPoint` (`--enable-test-commands`).
    public let testCommands: Bool
    private var process: Process?

    /// - Parameter testCommands: start the server with its test commands (fault injection).
    public init(testCommands: Bool = false) throws {
        self.testCommands = testCommands
        port = try Self.freePort()
        dataPath = FileManager.default.temporaryDirectory.appendingPathComponent("secantus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataPath, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dataPath)
    }

    /// A connection string with short timeouts, so that an outage shows within about 2 s.
    public var uri: String {
        "mongodb://127.0.0.1:\(port)/?serverSelectionTimeoutMS=1500&connectTimeoutMS=1500&socketTimeoutMS=5000"
    }

    /// A connection string without timeouts, to test the client's own defaults.
    public var plainURI: String { "mongodb://127.0.0.1:\(port)/" }

    /// Starts the server and waits until it accepts connections (up to 30 s).
    public func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.secantusBinary)
        process.arguments =
            [
                "--host", "127.0.0.1", "--port", String(port), "--storage-path", dataPath.path, "--log-level", "ERROR",
            ] + (testCommands ? ["--enable-test-commands"] : [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if Self.accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw SecantusError.didNotStart(port: port)
    }

    /// Kills the server at once (SIGKILL) and waits for it to exit.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    public enum SecantusError: Error { case didNotStart(port: Int), noFreePort }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw SecantusError.noFreePort }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
