import Foundation

/// The web app and page templates bundled as resources (`Resources/web/`), read once.
enum WebResources {
    /// The files the server serves as they are, by name, with their content type.
    static let assets: [String: (contentType: String, bytes: [UInt8])] = {
        var found: [String: (String, [UInt8])] = [:]
        for (name, type) in [
            ("index.html", "text/html"), ("app.css", "text/css"), ("page.css", "text/css"),
            ("favicon.svg", "image/svg+xml"),
        ] + modules.map({ ($0, "text/javascript") }) {
            found[name] = (type + "; charset=utf-8", bytes(name))
        }
        return found
    }()

    /// The web app's ES modules: `index.html` loads `app.js`, which imports a module per page, and
    /// they the small shared ones. One left out here would be a `404` that stops the app from
    /// starting (a test follows the imports from `app.js` and compares).
    static let modules = [
        "app.js", "api.js", "dom.js", "format.js", "pictures.js", "stats.js", "live.js", "leaderboard.js",
        "sign-in.js", "my-routes.js", "inbox.js", "route.js", "records.js", "segments.js", "groups.js",
        "compare.js", "upload.js", "import.js", "account.js", "phone-settings.js", "device.js",
    ]

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
