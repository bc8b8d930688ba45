import Foundation

/// An archive written by a Python `script` (its `zipfile` and `gzip` are the reference writers the
/// import tests check against), which gets the path to write as `sys.argv[1]`.
func pythonArchive(_ script: String) throws -> Data {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString).zip")
    defer { try? FileManager.default.removeItem(at: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, out.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestFailure("python3 could not write the archive") }
    return try Data(contentsOf: out)
}
