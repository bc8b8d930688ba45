import Foundation
import Synchronization
import Testing

/// The `routeranker` executable that `swift build` put next to this test bundle, run as a person
/// would run it.
enum RouteRankerCommand {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static var executable: URL {
        get throws {
            let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            let candidates = [
                here.appendingPathComponent("routeranker"),
                here.deletingLastPathComponent().appendingPathComponent("routeranker"),
                Bundle.main.bundleURL.appendingPathComponent("routeranker"),
                Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("routeranker"),
            ]
            return try #require(
                candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                "no routeranker executable next to the tests (\(candidates.map(\.path)))")
        }
    }

    /// Runs `routeranker arguments…` with `environment` added, and waits for it — on a thread of
    /// its own: blocking a thread of the cooperative pool (2 on a 2-core machine) could starve the
    /// in-process server the command talks to.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let executable = try executable
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Swift.Result { try runBlocking(executable, arguments, environment) })
            }.start()
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], _ environment: [String: String]) throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Standard error on another thread, so that neither pipe can fill up and block the child.
        let errorData = Mutex(Data())
        let errorRead = DispatchSemaphore(value: 0)
        Thread {
            errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() }
            errorRead.signal()
        }.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    /// A file of the project's test data.
    static func testData(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RouteRankerCoreTests/Data").appendingPathComponent(path).path
    }
}
