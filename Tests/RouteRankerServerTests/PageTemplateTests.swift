import Testing

@testable import RouteRankerServer

/// The page templates: text is escaped, the server's own markup is not, and every bundled file is there.
@Suite struct PageTemplateTests {
    @Test func textIsEscapedAndMarkupIsKept() {
        let page = PageTemplate.render(
            "<h1>{{name}}</h1><p title=\"{{ name }}\">{{missing}}</p>{{{map}}}",
            text: ["name": "<script>alert(\"1\")</script> & 'co'"], markup: ["map": "<svg></svg>"])
        #expect(
            page
                == "<h1>&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; &amp; &#39;co&#39;</h1>"
                + "<p title=\"&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; &amp; &#39;co&#39;\"></p><svg></svg>")
        // A value is never read as a template itself.
        #expect(PageTemplate.render("{{a}}", text: ["a": "{{b}}"]) == "{{b}}")
        // An unclosed tag stays as it is.
        #expect(PageTemplate.render("x {{a", text: ["a": "1"]) == "x {{a")
    }

    @Test func everyBundledFileIsThere() {
        for name in ["link.html", "link-gone.html"] {
            #expect(!WebResources.text(name).isEmpty, "\(name)")
        }
        for (name, asset) in WebResources.assets {
            #expect(!asset.bytes.isEmpty, "\(name)")
        }
    }
}
