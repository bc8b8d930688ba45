import Foundation
import HummingbirdTesting
import RouteRankerCore
import Testing

/// Live following (API.md "Live following") on one live server: the SSE streams as a follower
/// reads them, against the real database and its change stream.
@Suite(.serialized) struct LiveFollowingTests {
    /// Follows `path` as `token` (or with no token), optionally resuming after `lastEventID`.
    static func follow(_ port: Int, _ path: String, token: String? = nil, lastEventID: Int? = nil) throws
        -> SSEClient
    {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let lastEventID { headers["Last-Event-ID"] = String(lastEventID) }
        return try SSEClient(port: port, path: path, headers: headers)
    }

    /// The `from` and `id` of every `points` event, checked contiguous from `start`: no gap, no repeat.
    static func expectContiguous(
        _ client: SSEClient, from start: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var next = start
        for event in client.events where event.event == "points" {
            let from = event.json["from"] as? Int
            let count = (event.json["points"] as? [Any])?.count ?? 0
            #expect(from == next, "an event from \(from ?? -1) after \(next) points", sourceLocation: sourceLocation)
            next = (from ?? next) + count
            #expect(
                event.id == String(next), "id \(event.id ?? "none") after \(next) points",
                sourceLocation: sourceLocation)
        }
    }

    static func times(_ points: [JSONObject]) -> [Double] { points.compactMap { number($0["t"]) } }

    @Test func aFollowerGetsTheRouteSoFarThenEveryAppendInOrder() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let track = Fixture.track(2600, interval: 2)
            let id = try await client.createRoute(token, Array(track.prefix(1500)), recording: true).requiredID()
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: token)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 1500 })
            #expect(follower.status == 200)
            // Catch-up comes in events of at most 1000 points.
            #expect(follower.events.map(\.id) == ["1000", "1500"])
            var sent = 1500
            for size in [1, 7, 600, 492] {
                _ = try await client.appendPoints(token, id, Array(track[sent..<(sent + size)]))
                sent += size
                // Each append reaches the follower before the next is sent, whole and in order (the
                // contract's 1 s runs from the commit; the bound here is generous, so that the whole
                // suite's load on two cores cannot fail it: `bench-live` measures the latency).
                #expect(await follower.wait(seconds: 10) { $0.points.count == sent }, "append of \(size)")
            }
            Self.expectContiguous(follower, from: 0)
            #expect(Self.times(follower.points) == track.prefix(sent).map(\.t))
            let last = try #require(follower.events.last?.json["stats"] as? JSONObject)
            #expect(last["points"] as? Int == sent)
            #expect(!follower.ended)
        }
    }

    @Test func resumingWithLastEventIDOrFromLosesNothing() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let track = Fixture.track(300, interval: 2)
            let id = try await client.createRoute(token, Array(track.prefix(100)), recording: true).requiredID()
            let first = try Self.follow(port, "/v1/routes/\(id)/live", token: token)
            #expect(await first.wait { $0.points.count == 100 })
            _ = try await client.appendPoints(token, id, Array(track[100..<150]))
            #expect(await first.wait { $0.points.count == 150 })
            let lastID = try #require(first.events.last?.id.flatMap { Int($0) })
            first.close()
            // While nobody follows, the route moves on.
            _ = try await client.appendPoints(token, id, Array(track[150..<220]))
            let second = try Self.follow(port, "/v1/routes/\(id)/live", token: token, lastEventID: lastID)
            defer { second.close() }
            #expect(await second.wait { $0.points.count == 70 })
            _ = try await client.appendPoints(token, id, Array(track[220..<300]))
            #expect(await second.wait { $0.points.count == 150 })
            Self.expectContiguous(second, from: 150)
            #expect(Self.times(first.points + second.points) == track.map(\.t))

            // `?from=` starts at any index; Last-Event-ID wins over it.
            let third = try Self.follow(port, "/v1/routes/\(id)/live?from=290", token: token)
            defer { third.close() }
            #expect(await third.wait { $0.points.count == 10 })
            #expect(third.events.first?.json["from"] as? Int == 290)
            let fourth = try Self.follow(port, "/v1/routes/\(id)/live?from=0", token: token, lastEventID: 299)
            defer { fourth.close() }
            #expect(await fourth.wait { $0.points.count == 1 })
        }
    }

    @Test func privacyZonesHoldInLiveEventsAndIndicesCountVisiblePoints() async throws {
        try await withLiveApp { client, port in
            let owner = try await client.register("ada", friends: ["bob"])
            let friend = try await client.register("bob")
            // 100 m apart heading east; each zone (radius 150 m) hides points 0…2 and 20…22.
            let track = SharingFixture.line(40)
            let hidden: Set<Int> = [0, 1, 2, 20, 21, 22]
            let zones = [track[1], track[21]].map { #"{"lat":\#($0.lat),"lon":\#($0.lon),"radius_m":150}"# }
            #expect(try await client.putZones(owner, "[" + zones.joined(separator: ",") + "]").status == .ok)
            let id = try await client.newSharedRoute(owner, points: Array(track.prefix(10)), recording: true)
            #expect(try await client.shareRoute(owner, id, to: "bob").status == .created)
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: friend)
            let ownView = try Self.follow(port, "/v1/routes/\(id)/live", token: owner)
            defer {
                follower.close()
                ownView.close()
            }
            #expect(await follower.wait { $0.points.count == 7 })
            _ = try await client.appendPoints(owner, id, Array(track[10..<25]))
            _ = try await client.appendPoints(owner, id, Array(track[25..<40]))
            let visible = track.indices.filter { !hidden.contains($0) }
            #expect(await follower.wait { $0.points.count == visible.count })
            #expect(await ownView.wait { $0.points.count == 40 })
            #expect(Self.times(follower.points) == visible.map { track[$0].t })
            Self.expectContiguous(follower, from: 0)
            #expect(follower.events.last?.id == String(visible.count))
            // The stats' start is the first point the friend may see.
            let stats = try #require(follower.events.last?.json["stats"] as? JSONObject)
            let start = try #require(stats["start"] as? JSONObject)
            #expect(number(start["t"]) == track[3].t)
            #expect(stats["points"] as? Int == 40)

            // Resuming counts visible points too: after the 10th visible point comes the 11th.
            let resumed = try Self.follow(port, "/v1/routes/\(id)/live", token: friend, lastEventID: 10)
            defer { resumed.close() }
            #expect(await resumed.wait { $0.points.count == visible.count - 10 })
            #expect(Self.times(resumed.points) == visible.dropFirst(10).map { track[$0].t })
        }
    }

    @Test func changingTheOwnersZonesEndsOtherFollowersStreamsButNotTheOwners() async throws {
        try await withLiveApp { client, port in
            let owner = try await client.register("ada", friends: ["bob"])
            let friend = try await client.register("bob")
            let track = SharingFixture.line(10)
            let id = try await client.newSharedRoute(owner, points: track, recording: true)
            #expect(try await client.shareRoute(owner, id, to: "bob").status == .created)
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: friend)
            let ownView = try Self.follow(port, "/v1/routes/\(id)/live", token: owner)
            defer {
                follower.close()
                ownView.close()
            }
            #expect(await follower.wait { $0.points.count == 10 })
            #expect(await ownView.wait { $0.points.count == 10 })
            let zone = #"[{"lat":\#(track[9].lat),"lon":\#(track[9].lon),"radius_m":100}]"#
            #expect(try await client.putZones(owner, zone).status == .ok)
            // The friend's numbering would change: the stream ends (no event), and a new one has the new view.
            #expect(await follower.wait(seconds: 10) { $0.ended })
            #expect(follower.events.map(\.event) == ["points"])
            let again = try Self.follow(port, "/v1/routes/\(id)/live", token: friend)
            defer { again.close() }
            #expect(await again.wait { $0.events.count == 1 })
            #expect(again.points.count == 8)  // points 8 (100 m from the centre: inside) and 9 are hidden
            #expect(!ownView.ended)
        }
    }

    @Test func revokingTheShareSendsGoneWithinASecondAndCloses() async throws {
        try await withLiveApp { client, port in
            let owner = try await client.register("ada", friends: ["bob"])
            let friend = try await client.register("bob")
            let id = try await client.newSharedRoute(owner, recording: true)
            #expect(try await client.shareRoute(owner, id, to: "bob").status == .created)
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: friend)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 30 })
            #expect(try await client.send(.delete, "/v1/routes/\(id)/shares/bob", token: owner).status == .noContent)
            #expect(await follower.wait(seconds: 10) { $0.ended })
            #expect(follower.events.last?.event == "gone")
        }
    }

    @Test func aLinkFollowsWithoutATokenAndRevokingItSendsGone() async throws {
        try await withLiveApp { client, port in
            let owner = try await client.register("ada")
            let id = try await client.newSharedRoute(owner, points: SharingFixture.line(5), recording: true)
            let link = try await client.newLink(owner, id)
            let follower = try Self.follow(port, "/v1/links/\(link.secret)/live")
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 5 })
            _ = try await client.appendPoints(owner, id, Array(SharingFixture.line(8).dropFirst(5)))
            #expect(await follower.wait(seconds: 10) { $0.points.count == 8 })
            #expect(
                try await client.send(.delete, "/v1/routes/\(id)/links/\(link.id)", token: owner).status == .noContent)
            #expect(await follower.wait(seconds: 10) { $0.ended })
            #expect(follower.events.last?.event == "gone")
        }
    }

    @Test func finishingSendsFinishedWithTheSummaryThenCloses() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let id = try await client.newSharedRoute(token, recording: true)
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: token)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 30 })
            #expect(try await client.send(.post, "/v1/routes/\(id)/finish", token: token).status == .ok)
            #expect(await follower.wait(seconds: 10) { $0.ended })
            let last = try #require(follower.events.last)
            #expect(last.event == "finished")
            #expect(last.json["id"] as? String == id)
            #expect(last.json["state"] as? String == "finished")
            // A finished route's stream sends everything, then `finished`, and ends at once.
            let late = try Self.follow(port, "/v1/routes/\(id)/live?from=25", token: token)
            #expect(await late.wait { $0.ended })
            #expect(late.events.map(\.event) == ["points", "finished"])
        }
    }

    @Test func deletingTheRouteSendsGone() async throws {
        try await withLiveApp { client, port in
            let token = try await client.register("ada")
            let id = try await client.newSharedRoute(token, recording: true)
            let follower = try Self.follow(port, "/v1/routes/\(id)/live", token: token)
            defer { follower.close() }
            #expect(await follower.wait { $0.points.count == 30 })
            #expect(try await client.send(.delete, "/v1/routes/\(id)", token: token).status == .noContent)
            #expect(await follower.wait(seconds: 10) { $0.ended })
            #expect(follower.events.last?.event == "gone")
        }
    }

    @Test func refusalsAreOrdinaryJSONErrorsBeforeTheStream() async throws {
        try await withLiveApp { client, port in
            let owner = try await client.register("ada")
            let stranger = try await client.register("eve")
            let id = try await client.newSharedRoute(owner, recording: true)
            let cases: [(String, String?, [String: String], Int)] = [
                ("/v1/routes/\(id)/live", nil, [:], 401),
                ("/v1/routes/\(id)/live", stranger, [:], 404),
                ("/v1/routes/\(SharingFixture.madeUpRoute)/live", owner, [:], 404),
                ("/v1/links/\(SharingFixture.madeUpSecret)/live", nil, [:], 404),
                ("/v1/routes/\(id)/live?from=-1", owner, [:], 400),
                ("/v1/routes/\(id)/live", owner, ["Last-Event-ID": "x"], 400),
            ]
            for (path, token, headers, status) in cases {
                var all = headers
                if let token { all["Authorization"] = "Bearer \(token)" }
                let refused = try SSEClient(port: port, path: path, headers: all)
                #expect(await refused.wait { $0.ended }, "\(path)")
                #expect(refused.status == status, "\(path): \(refused.body)")
                #expect(refused.body.contains(#""error""#), "\(path): \(refused.body)")
            }
        }
    }
}
