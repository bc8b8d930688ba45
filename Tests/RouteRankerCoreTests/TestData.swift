import Foundation

/// Access to the committed data files under `Data/` (a `.copy("Data")` resource).
enum TestData {
    static func url(_ name: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Data").appendingPathComponent(name)
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }

    /// Rows of a CSV file with a header line, as string fields.
    static func csvRows(_ name: String) throws -> [[Substring]] {
        try text(name).split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
    }
}
