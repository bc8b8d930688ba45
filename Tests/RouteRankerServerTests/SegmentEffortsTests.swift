import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

/// API.md "Segments and leaderboards": efforts are matched by the contract's rule and stored, and
/// follow their routes (finish, activity, delete) and segments (create, delete) at once.
@Suite struct SegmentEffortsTests {
    typealias F = SegmentFixture

    /// Route → its efforts' `[start_index, end_index, elapsed_s]`.
    static func byRoute(_ efforts: [JSONObject]) -> [String: [[Double]]] {
        Dictionary(grouping: efforts, by: { $0["route"] as? String ?? "" }).mapValues { list in
            list.map {
                [$0[number: "start_index"] ?? -1, $0[number: "end_index"] ?? -1, $0[number: "elapsed_s"] ?? -1]
            }
            .sorted { $0[0] < $1[0] }
        }
    }

    @Test func theMatchingRuleHoldsWhicheverComesFirstTheRoutesOrTheSegment() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let before = try await client.newSegment(me, name: "Before")
            // The same straight line, with 4 s pauses so that times are not indices.
            let straight = F.straight
            let lap: [(azimuth: Double, metres: Double)] = [(90, 600), (0, 100), (270, 600), (180, 100)]
            let laps = F.track(lap + lap + lap)  // 3 laps of a 600 × 100 m rectangle
            let reversed = F.track([(270, 600)], from: straight[150].coordinate)
            let detour = F.track([(90, 250), (0, 40), (90, 100), (180, 40), (90, 250)])  // 40 m off in the middle
            let slow = F.track([(90, 600)], speed: 2)  // points 2 m apart: the segment is 50...250
            let routes = [
                "straight": try await client.newTrack(me, straight),
                "laps": try await client.newTrack(me, laps),
                "reversed": try await client.newTrack(me, reversed),
                "detour": try await client.newTrack(me, detour),
                "slow": try await client.newTrack(me, slow),
            ]
            let after = try await client.newSegment(me, name: "After")

            let lapPoints = 2 * 150 + 2 * 25  // points per lap
            let expected: [String: [[Double]]] = [
                routes["straight"]!: [[25, 125, 100]],
                routes["laps"]!: (0..<3).map { lap in
                    [Double(lap * lapPoints + 25), Double(lap * lapPoints + 125), 100]
                },
                routes["slow"]!: [[50, 250, 200]],
            ]
            try await Self.check(client, me, before, expected: expected, first: routes["straight"]!)
            try await Self.check(client, me, after, expected: expected, first: routes["straight"]!)
        }
    }

    @Test func effortsFollowFinishActivityAndDeletion() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let segment = try await client.newSegment(me)
            let route = try await client.newTrack(me, Array(F.straight.prefix(60)), recording: true)
            _ = try await client.appendPoints(me, route, Array(F.straight.dropFirst(60)))
            #expect(try await client.efforts(me, segment).isEmpty)  // recording: none yet

            let finish = try await client.send(.post, "/v1/routes/\(route)/finish", token: me)
            #expect(finish.status == .ok)
            #expect(try await client.efforts(me, segment).map { $0[number: "elapsed_s"] } == [100])
            #expect(try await client.send(.post, "/v1/routes/\(route)/finish", token: me).status == .ok)
            #expect(try await client.efforts(me, segment).count == 1)

            let patch = try await client.send(.patch, "/v1/routes/\(route)", token: me, json: #"{"activity":"run"}"#)
            #expect(patch.status == .ok)
            #expect(try await client.efforts(me, segment).map { $0[number: "elapsed_s"] } == [100])

            let second = try await client.newTrack(me, F.track([(90, 600)], speed: 5))
            #expect(try await client.efforts(me, segment).count == 2)
            #expect(try await client.send(.delete, "/v1/routes/\(second)", token: me).status == .noContent)
            #expect(try await client.efforts(me, segment).map { $0["route"] as? String } == [route])
            let board = try await client.leaderboard(me, segment)
            #expect(F.items(board).map { $0["route"] as? String } == [route])

            #expect(try await client.send(.delete, "/v1/segments/\(segment)", token: me).status == .noContent)
            #expect(try await client.send(.get, "/v1/segments/\(segment)/efforts", token: me).status == .notFound)
        }
    }

    /// The efforts on `segment`: as `expected`, fastest first with competition ranks, `first` first.
    static func check(
        _ client: some TestClientProtocol, _ me: String, _ segment: String, expected: [String: [[Double]]],
        first route: String
    ) async throws {
        let efforts = try await client.efforts(me, segment)
        #expect(byRoute(efforts) == expected, "segment \(segment)")
        #expect(efforts.map { $0[number: "elapsed_s"] } == [100, 100, 100, 100, 200])
        #expect(efforts.map { $0["rank"] as? Int } == [1, 1, 1, 1, 5])
        let speeds = efforts.map { ($0[number: "avg_speed_mps"] ?? 0) * ($0[number: "elapsed_s"] ?? 0) }
        #expect(speeds.allSatisfy { abs($0 - 400) < 1e-6 })
        let first = try #require(efforts.first)
        #expect(first["route"] as? String == route)
        #expect(first["started_at"] as? String == rfc3339(F.t0 + 25))
    }
}

/// `2026-…Z` as the API writes `t`.
func rfc3339(_ t: Double) -> String { RFC3339.formatMilliseconds(t) }
