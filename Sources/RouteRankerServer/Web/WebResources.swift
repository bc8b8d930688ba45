import Foundation

/// The web app and page templates bundled as resources (`Resources/web/`), read once.
enum WebResources {
    /// The files the server serves as they are, by name, with their content type.
    static let assets: [String: (contentType: String, bytes: [UInt8])] = {
        var found: [String: (String, [UInt8])] = [:]
        for (name, type) in [
            ("index.html", "text/html"), ("app.js", "text/javascript"), ("app.css", "text/css"),
            ("page.css", "text/css"), ("favicon.svg", "image/svg+xml"),
        ] {
            found[name] = (type + "; charset=utf-8", bytes(name))
        }
        return found
    }()

    /// A bundled file's text; empty when missing (a test checks every file is there).
    static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

    static func bytes(_ name: String) -> [UInt8] {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let base = String(name[..<dot])
        let ext = dot < name.endIndex ? String(name[name.index(after: dot)...]) : nil
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "web"),
            let data = try? Data(contentsOf: url)
        else { return [] }
        return Array(data)
    }
}
