import Foundation

/// Where the tests find their database: `scripts/test` starts a throwaway SecantusDB and exports
/// `MONGODB_URI`. Without it the tests fail loudly rather than skip: a suite that silently runs
/// nothing proves nothing.
public enum TestEnvironment {
    public static var mongoURI: String {
        guard let uri = ProcessInfo.processInfo.environment["MONGODB_URI"], !uri.isEmpty else {
            fatalError("MONGODB_URI is not set: run the tests with scripts/test, which starts a test database")
        }
        return uri
    }

    /// A database name no other test uses, so tests run in parallel without seeing each other.
    public static func uniqueDatabaseName(_ prefix: String = "test") -> String {
        "\(prefix)_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
    }

    /// The SecantusDB server binary, for tests that start and stop a database of their own.
    public static var secantusBinary: String {
        if let path = ProcessInfo.processInfo.environment["SECANTUSD"], !path.isEmpty { return path }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".venv/bin/secantusd-py").path
    }
}
