import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// API.md "Segments and leaderboards": the leaderboard and effort lists show only what the caller
/// can see — theirs and shared with them, minus efforts in other people's privacy zones.
@Suite struct SegmentLeaderboardTests {
    typealias F = SegmentFixture

    /// The straight 600 m line at `speed` m/s, starting `offset` s after `F.t0`: the segment takes
    /// 400 / `speed` s.
    static func run(speed: Double, offset: Double = 0) -> [TrackPoint] {
        F.track([(90, 600)], speed: speed, t0: F.t0 + offset)
    }

    @Test func strangersNeverAppearAndARevokedShareDropsAtOnce() async throws {
        try await withApp { client in
            let me = try await client.register("me", name: "Me")
            let friend = try await client.register("friend", name: "Friend", friends: ["me"])
            let stranger = try await client.register("stranger", name: "Stranger")
            let segment = try await client.newSegment(me)
            let mine1 = try await client.newTrack(me, Self.run(speed: 4))  // 100 s
            _ = try await client.newTrack(me, Self.run(speed: 2, offset: 1000))  // 200 s
            let friends = try await client.newTrack(friend, Self.run(speed: 5))  // 80 s
            _ = try await client.newTrack(stranger, Self.run(speed: 8))  // 50 s: fastest, never seen
            #expect(try await client.shareRoute(friend, friends, to: "me").status == .created)

            let board = try await client.leaderboard(me, segment)
            #expect(board.status == .ok)
            let items = F.items(board)
            #expect(items.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["friend", "me"])
            #expect(items.map { ($0["user"] as? JSONObject)?["name"] as? String } == ["Friend", "Me"])
            #expect(items.map { $0["rank"] as? Int } == [1, 2])
            #expect(items.map { $0["attempts"] as? Int } == [1, 2])
            #expect(items.map { $0["route"] as? String } == [friends, mine1])
            #expect(items.map { $0[number: "elapsed_s"] } == [80, 100])
            // avg_speed_mps = length_m / elapsed_s (the segment is 400 m to a few nanometres).
            let length = try #require(
                try await client.send(.get, "/v1/segments/\(segment)", token: me).json[number: "length_m"])
            #expect(items.map { $0[number: "avg_speed_mps"] } == [length / 80, length / 100])
            #expect(
                Set(items[0].keys) == ["rank", "user", "route", "elapsed_s", "avg_speed_mps", "started_at", "attempts"])
            #expect(board.json["total"] as? Int == 2)

            #expect(try await client.efforts(me, segment, user: "stranger").isEmpty)
            #expect(try await client.efforts(me, segment, user: "friend").map { $0["route"] as? String } == [friends])
            // The stranger sees only their own.
            let theirs = F.items(try await client.leaderboard(stranger, segment))
            #expect(theirs.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["stranger"])

            let revoke = try await client.send(.delete, "/v1/routes/\(friends)/shares/me", token: friend)
            #expect(revoke.status == .noContent)
            let after = F.items(try await client.leaderboard(me, segment))
            #expect(after.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["me"])
            #expect(try await client.efforts(me, segment, user: "friend").isEmpty)
        }
    }

    @Test func anEffortInTheOwnersPrivacyZoneIsShownToTheOwnerAlone() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let friend = try await client.register("friend", friends: ["me"])
            let segment = try await client.newSegment(me)
            let route = try await client.newTrack(friend, Self.run(speed: 5))
            _ = try await client.shareRoute(friend, route, to: "me")
            #expect(F.items(try await client.leaderboard(me, segment)).count == 1)

            let end = F.segmentPoints[100]
            let zones = try await client.putZones(friend, #"[{"lat":\#(end.lat),"lon":\#(end.lon),"radius_m":100}]"#)
            #expect(zones.status == .ok)
            #expect(F.items(try await client.leaderboard(me, segment)).isEmpty)
            #expect(try await client.efforts(me, segment, user: "friend").isEmpty)
            #expect(F.items(try await client.leaderboard(friend, segment)).count == 1)
            #expect(try await client.efforts(friend, segment).count == 1)
        }
    }

    @Test func tiesShareARankAndAreListedByStartTimeAndPagesFollowTheCursor() async throws {
        try await withApp { client in
            let me = try await client.register("me", friends: ["a", "b", "c"])
            let segment = try await client.newSegment(me)
            // a and b take 100 s (b started earlier), c 80 s, me 200 s.
            try await Self.sharedRun(client, "a", speed: 4, offset: 500)
            try await Self.sharedRun(client, "b", speed: 4, offset: 100)
            try await Self.sharedRun(client, "c", speed: 5, offset: 0)
            _ = try await client.newTrack(me, Self.run(speed: 2))

            let all = F.items(try await client.leaderboard(me, segment))
            #expect(all.map { ($0["user"] as? JSONObject)?["id"] as? String } == ["c", "b", "a", "me"])
            #expect(all.map { $0["rank"] as? Int } == [1, 2, 2, 4])

            let (seen, lastCursor) = try await Self.pages(client, me, segment)
            #expect(seen == ["c", "b", "a", "me"])
            let foreign = try await client.send(.get, "/v1/segments?cursor=\(lastCursor)", token: me)
            #expect(foreign.status == .badRequest)
        }
    }

    /// Registers `user` (a friend of me) with one run shared with me.
    static func sharedRun(_ client: some TestClientProtocol, _ user: String, speed: Double, offset: Double)
        async throws
    {
        let token = try await client.register(user, friends: ["me"])
        let route = try await client.newTrack(token, run(speed: speed, offset: offset))
        _ = try await client.shareRoute(token, route, to: "me")
    }

    /// The user ids of the leaderboard read one item a page, and the last cursor given.
    static func pages(_ client: some TestClientProtocol, _ token: String, _ segment: String) async throws
        -> (ids: [String], lastCursor: String)
    {
        var seen: [String] = []
        var cursor = ""
        var query = "?limit=1"
        for _ in 0..<10 {
            let page = try await client.leaderboard(token, segment, query: query)
            #expect(page.status == .ok)
            #expect(page.json["total"] as? Int == 4)
            seen += F.items(page).compactMap { ($0["user"] as? JSONObject)?["id"] as? String }
            guard let next = page.json["next"] as? String else { break }
            cursor = next
            query = "?limit=1&cursor=\(next)"
        }
        return (seen, cursor)
    }
}
