import Testing

@testable import RouteRankerServer

/// The web app is ES modules with no build step: `index.html` loads `app.js` as a module, and the
/// browser fetches every module it imports from `/web/`. A module the server does not list is a
/// `404` there, and then no page of the app starts.
@Suite struct WebAppModulesTests {
    @Test func theModulesServedAreExactlyTheOnesAppJSReaches() {
        var reached: Set<String> = []
        var next = ["app.js"]
        while let module = next.popLast() {
            guard reached.insert(module).inserted else { continue }
            let text = WebResources.text(module)
            #expect(!text.isEmpty, "\(module) is bundled")
            next += Self.imports(of: text)
        }
        #expect(reached == Set(WebResources.modules))
        for module in WebResources.modules {
            #expect(WebResources.assets[module]?.contentType == "text/javascript; charset=utf-8", "\(module)")
        }
    }

    @Test func thePageLoadsTheAppAsAModule() {
        let index = WebResources.text("index.html")
        #expect(index.contains(#"<script type="module" src="/web/app.js"></script>"#))
    }

    /// The modules named by a module's `import … from "./name.js";` lines (the app imports nothing else).
    static func imports(of text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("import ") }.compactMap { line in
            guard let from = line.range(of: #"from "./"#), let end = line[from.upperBound...].firstIndex(of: "\"")
            else { return "(an import from elsewhere: \(line))" }
            return String(line[from.upperBound..<end])
        }
    }
}
