import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import Testing

@testable import RouteRankerServer

/// API.md "Limits and hostile input": a forged, truncated or foreign `cursor` — any shape, any
/// value — is `400` naming `cursor`, never `500`, never a crash, never another list's page. Issue 43
/// #1 (a `near` cursor with `key: []` killed the process) and #10 (a date of 9.2e18 ms was a `500`).
@Suite struct CursorForgeryTests {
    /// What a key component is, as the test knows each list (written out here, independently of
    /// the server's own declarations).
    enum Part {
        case tag(String), ms, number, nonNegative, integer, id, text
    }

    /// One list: where it is read, the list name its cursors carry, a key it must accept, and
    /// what each component of that key is.
    struct List {
        var path: String
        var name: String
        var token: String
        var valid: [String]
        var parts: [Part]
    }

    static let hugeNumbers = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999999999",
        "1e309", "-1e309", "1.7976931348623157e308",
    ]
    static let notNumbers = ["nan", "NaN", "-nan", "inf", "-inf", "infinity", "+Infinity", "", "x", " 1", "1 ", "0x"]

    /// Values that are wrong for a component of kind `part`.
    static func bad(for part: Part) -> [String] {
        switch part {
        case .tag(let tag): return [tag.uppercased(), "", "x", tag + tag]
        case .ms:
            return hugeNumbers + notNumbers + ["253402300800000", "-62135596800001", "1.5", "1e3"]
        case .number: return hugeNumbers.filter { $0.hasPrefix("1e") || $0.hasPrefix("-1e") } + notNumbers
        case .nonNegative: return ["1e309", "-1", "-0.5"] + notNumbers
        case .integer: return ["9223372036854775808", "-1", "1.5", "1e3"] + notNumbers
        case .id: return ["", "a b", "a/b", "ä", "a\u{0}b", "<script>", String(repeating: "a", count: 161)]
        case .text: return []  // any text is a name
        }
    }

    /// Every forged key for `list`: each component replaced by each bad value for it, the key
    /// cut short, made longer, emptied, or given numbers where text belongs.
    static func forgedKeys(_ list: List) -> [[String]] {
        var keys: [[String]] = [
            [], [""], list.valid + ["a"], Array(list.valid.dropLast()), Array(repeating: "1", count: 7),
        ]
        for (i, part) in list.parts.enumerated() {
            for value in bad(for: part) {
                var key = list.valid
                key[i] = value
                keys.append(key)
            }
        }
        return keys
    }

    static func encode(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

    static func cursor(_ list: String, _ key: [String]) -> String { Cursor(list: list, key: key).encoded }

    /// Everything every list must refuse, whatever its key: not base64url, not JSON, JSON of the
    /// wrong shape, a cursor cut short.
    static func malformed(_ list: List) -> [String] {
        let good = cursor(list.name, list.valid)
        let name = list.name.replacingOccurrences(of: "\"", with: "\\\"")
        return [
            "", "garbage", "!!!!", "%00", String(good.dropLast(3)), String(good.prefix(good.count / 2)),
            String(good.dropFirst(1)), encode("not json"), encode("{}"), encode("[]"), encode("null"),
            encode(#"{"list":"\#(name)"}"#), encode(#"{"list":"\#(name)","key":"1"}"#),
            encode(#"{"list":"\#(name)","key":[1,2]}"#), encode(#"{"list":"\#(name)","key":[null]}"#),
            encode(#"{"list":"\#(name)","key":[["1"],"a"]}"#), encode(#"{"list":"\#(name)","key":[1e400,"a"]}"#),
            encode(#"{"list":1,"key":[]}"#), String(repeating: "A", count: 3000),
        ]
    }

    /// Sends `cursor` to `list` and expects the contract's `400` naming the cursor.
    static func expectRefused(
        _ client: any TestClientProtocol, _ list: List, _ cursor: String, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let separator = list.path.contains("?") ? "&" : "?"
        let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let response = try await client.send(
            .get, list.path + separator + "cursor=" + escaped, token: list.token)
        let error = response.json["error"] as? JSONObject
        #expect(
            response.status == .badRequest && error?["field"] as? String == "cursor",
            "\(list.name) \(what): \(response.status) \(response.text.prefix(200))", sourceLocation: sourceLocation)
    }

    /// One user with something in every list; the lists as this test knows them.
    static func makeLists(_ client: any TestClientProtocol) async throws -> [List] {
        let friend = try await client.register("friend")
        let me = try await client.register("forger", friends: ["friend"])
        let origin = SegmentFixture.origin
        // 1.2 km east at 4 m/s, run: a 1k record, an effort on the segment, a hit of both `near`s.
        let points = SegmentFixture.track([(90, 1200)])
        let route = try await client.createRoute(me, points, name: "Run", activity: "run").requiredID()
        _ = try await client.createRoute(me, SegmentFixture.track([(0, 300)]), name: "Other", activity: "run")
        _ = try await client.createRoute(me, name: "Empty", recording: true)
        let segment = try await client.newSegment(me)
        #expect(try await client.shareRoute(me, route, to: "friend").status == .created)
        _ = try await client.newLink(me, route)
        let group = try await client.send(.post, "/v1/groups", token: me, json: #"{"name":"G","routes":["\#(route)"]}"#)
        #expect(group.status == .created)
        _ = try await client.createDevice(me, owner: "forger")
        let job = try await ImportsTests.importArchive(client, me, try Self.oneFileArchive())
        let jobID = try job.requiredID()

        let date = "1764000000000"
        let nearRoutes = "\(origin.lat),\(origin.lon),\(1000.0)"
        let nearSegments = "\(origin.lat),\(origin.lon),\(1000.0)"
        var lists: [List] = []
        for sort in ["started_at", "name", "distance_m", "duration_s", "avg_pace_s_per_km"] {
            let value: (String, Part) =
                switch sort {
                case "started_at": (date, .ms)
                case "name": ("Run", .text)
                default: ("1234.5", .number)
                }
            for order in [sort, "-" + sort] {
                lists.append(
                    List(
                        path: "/v1/routes?sort=\(order)", name: "routes:\(order)", token: me,
                        valid: ["v", value.0, "a"], parts: [.tag("v"), value.1, .id]))
                lists.append(
                    List(
                        path: "/v1/routes?sort=\(order)", name: "routes:\(order)", token: me, valid: ["n", "a"],
                        parts: [.tag("n"), .id]))
            }
        }
        let dated: [(String, String, String)] = [
            ("/v1/routes/\(route)/shares", "shares:\(route)", me), ("/v1/shares", "inbox", friend),
            ("/v1/imports", "imports", me), ("/v1/devices", "devices", me), ("/v1/segments", "segments", me),
            ("/v1/routes/\(route)/links", "links:\(route)", me), ("/v1/groups", "groups", me),
        ]
        for (path, name, token) in dated {
            lists.append(List(path: path, name: name, token: token, valid: [date, "a"], parts: [.ms, .id]))
        }
        lists += [
            List(
                path: "/v1/routes?near=\(origin.lat),\(origin.lon)&radius_m=1000", name: "routes:near:\(nearRoutes)",
                token: me, valid: ["10.5", "a"], parts: [.nonNegative, .id]),
            List(
                path: "/v1/segments?near=\(origin.lat),\(origin.lon)&radius_m=1000",
                name: "segments:near:\(nearSegments)", token: me, valid: ["10.5", "a"], parts: [.nonNegative, .id]),
            List(
                path: "/v1/imports/\(jobID)/files", name: "import-files:\(jobID)", token: me, valid: ["0"],
                parts: [.integer]),
            List(path: "/v1/friends", name: "friends", token: me, valid: ["Friend", "friend"], parts: [.text, .id]),
            List(
                path: "/v1/records/1k?activity=run", name: "records:run:1k", token: me,
                valid: ["100000", date, "a"], parts: [.integer, .ms, .id]),
            List(
                path: "/v1/segments/\(segment)/leaderboard", name: "leaderboard:\(segment)", token: me,
                valid: ["100.0", "1760000000.0", "a"], parts: [.nonNegative, .number, .id]),
            List(
                path: "/v1/segments/\(segment)/efforts", name: "efforts:\(segment):forger", token: me,
                valid: ["100.0", "1760000000.0", "a", "000000000025"], parts: [.nonNegative, .number, .id, .integer]),
        ]
        return lists
    }

    /// A zip of one small GPX file (Python's `zipfile`, as `ImportsTests`), for an import's files.
    static func oneFileArchive() throws -> Data {
        let script = #"""
            import sys, zipfile
            gpx = (b'<gpx><trk><trkseg><trkpt lat="48.2" lon="16.37"><time>2025-01-01T00:00:00Z</time></trkpt>'
                   b'<trkpt lat="48.201" lon="16.37"><time>2025-01-01T00:01:00Z</time></trkpt></trkseg></trk></gpx>')
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("a.gpx", gpx)
            """#
        return try pythonArchive(script)
    }

    /// Issue 43 #1, as found: a `near` cursor with an empty key, with a route in range.
    @Test func aNearCursorWithAnEmptyKeyIsRefused() async throws {
        try await withApp { client in
            let me = try await client.register("forger")
            _ = try await client.createRoute(me, SegmentFixture.track([(90, 300)]), name: "Run")
            let o = SegmentFixture.origin
            let list = List(
                path: "/v1/routes?near=\(o.lat),\(o.lon)&radius_m=1000", name: "routes:near:\(o.lat),\(o.lon),1000.0",
                token: me, valid: ["1", "a"], parts: [.nonNegative, .id])
            try await Self.expectRefused(client, list, Self.cursor(list.name, []), "key []")
            try await Self.expectRefused(client, list, Self.cursor(list.name, ["5"]), "key [5]")
        }
    }

    /// Issue 43 #10, as found: a date past what a `Date` and a BSON date hold.
    @Test func aDateCursorPastTheRepresentableRangeIsRefused() async throws {
        try await withApp { client in
            let me = try await client.register("forger")
            _ = try await client.createRoute(me, SegmentFixture.track([(90, 300)]), name: "Run")
            let list = List(
                path: "/v1/routes?sort=-started_at", name: "routes:-started_at", token: me, valid: [], parts: [])
            for ms in ["9223372036854775807", "-9223372036854775808", "253402300800000"] {
                try await Self.expectRefused(client, list, Self.cursor(list.name, ["v", ms, "a"]), ms)
            }
        }
    }

    /// Every list, every forged shape: `400` naming `cursor`; the list's own valid key is `200`
    /// (the refusals are not of everything); another list's cursor is `400`.
    @Test func everyListRefusesEveryForgedCursor() async throws {
        try await withApp { client in
            let lists = try await Self.makeLists(client)
            for list in lists {
                let separator = list.path.contains("?") ? "&" : "?"
                let good = try await client.send(
                    .get, list.path + separator + "cursor=" + Self.cursor(list.name, list.valid), token: list.token)
                #expect(good.status == .ok, "\(list.name) \(list.valid): \(good.status) \(good.text.prefix(200))")
                for key in Self.forgedKeys(list) {
                    try await Self.expectRefused(client, list, Self.cursor(list.name, key), "key \(key)")
                }
                for raw in Self.malformed(list) {
                    try await Self.expectRefused(client, list, raw, "cursor \(raw.prefix(60))")
                }
                // Another list's cursor, even with a key that would fit this list's shape.
                for other in lists where other.name != list.name {
                    try await Self.expectRefused(
                        client, list, Self.cursor(other.name, list.valid), "from \(other.name)")
                }
            }
        }
    }

    /// The declarations alone (no server): arity, types and ranges, and the date range's ends.
    @Test func shapesCheckArityTypeAndRange() {
        let dated = CursorShape.dateThenID
        #expect(dated.accepts(["1764000000000", "6b0837b5e72a487b210220f1"]))
        #expect(dated.accepts(["-62135596800000", "a"]) && dated.accepts(["253402300799999", "a:b"]))
        #expect(!dated.accepts(["-62135596800001", "a"]) && !dated.accepts(["253402300800000", "a"]))
        #expect(!dated.accepts([]) && !dated.accepts(["1"]) && !dated.accepts(["1", "a", "b"]))
        #expect(
            !CursorShape.distanceThenID.accepts(["nan", "a"]) && !CursorShape.distanceThenID.accepts(["inf", "a"]))
        #expect(!CursorShape.distanceThenID.accepts(["-1", "a"]) && CursorShape.distanceThenID.accepts(["0", "a"]))
        #expect(CursorShape.nameThenID.accepts(["any \"name\" ✓", "a"]))
        #expect(!CursorShape.fileIndex.accepts(["2147483648"]) && CursorShape.fileIndex.accepts(["2147483647"]))
        let sorted = SortKeyset.cursorShape(field: "metrics.distance_m")
        #expect(sorted.accepts(["v", "1.5", "a"]) && sorted.accepts(["n", "a"]))
        #expect(
            !sorted.accepts(["v", "1e309", "a"]) && !sorted.accepts(["n", "1", "a"]) && !sorted.accepts(["v", "a"]))
    }
}
