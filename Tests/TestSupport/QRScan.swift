import Foundation

/// QR Codes read back by an independent decoder: zbarimg (Debian's zbar-tools, which
/// scripts/setup installs) scans a greyscale picture of the modules.
public enum QRScan {
    public static let zbarimg = "/usr/bin/zbarimg"

    /// The text zbarimg reads from `modules` (rows from the top, `true` dark), drawn 4 pixels a
    /// module with a 4-module quiet zone as a binary PGM.
    public static func text(of modules: [[Bool]]) throws -> String {
        let scale = 4
        let quiet = 4
        let side = (modules.count + 2 * quiet) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for (r, row) in modules.enumerated() {
            for (c, dark) in row.enumerated() where dark {
                for y in 0..<scale {
                    let start = ((r + quiet) * scale + y) * side + (c + quiet) * scale
                    for x in 0..<scale { pixels[start + x] = 0 }
                }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qrscan-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try (Data("P5\n\(side) \(side)\n255\n".utf8) + Data(pixels)).write(to: file)

        guard FileManager.default.isExecutableFile(atPath: zbarimg) else {
            throw Failure(message: "\(zbarimg) is missing: install Debian's zbar-tools (scripts/setup does)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        // --raw: the data alone; binary: the bytes as they are, no guessing of a character set.
        process.arguments = ["--quiet", "--raw", "-Sbinary", file.path]
        let output = Pipe()
        // Its diagnostics (and a complaint about D-Bus, which it looks for) only matter on failure.
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let diagnostics = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = String(decoding: diagnostics, as: UTF8.self)
            throw Failure(message: "zbarimg read no QR Code (exit status \(process.terminationStatus)): \(said)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The modules a path of `M x y h n v1 h-n z` rectangles (as `QRCodeSVG` draws) covers, on the
    /// smallest square grid that holds them.
    public static func modules(ofPath d: String) -> [[Bool]] {
        let rects = d.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/).compactMap { m -> (Int, Int, Int)? in
            guard let x = Int(m.1), let y = Int(m.2), let n = Int(m.3) else { return nil }
            return (x, y, n)
        }
        let side = rects.map { max($0.0 + $0.2, $0.1 + 1) }.max() ?? 0
        var grid = Array(repeating: Array(repeating: false, count: side), count: side)
        for (x, y, n) in rects {
            for c in x..<(x + n) { grid[y][c] = true }
        }
        return grid
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
