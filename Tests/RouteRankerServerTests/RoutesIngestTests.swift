import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

extension RouteTests {
    /// API.md's ingest rules, end to end, through appends (whose answers count what happened).
    @Suite struct RoutesIngestTests {
        /// A recording route with one point at the origin; returns (token, id, that point).
        func recording(_ client: any TestClientProtocol, activity: String = "walk") async throws
            -> (String, String, TrackPoint)
        {
            let token = try await client.register("ada")
            let first = TrackPoint(lat: 52.5, lon: 13.4, t: Fixture.t0)
            let id = try await client.createRoute(token, [first], activity: activity, recording: true).requiredID()
            return (token, id, first)
        }

        func counts(_ answer: JSONObject) -> [Int] {
            ["accepted", "duplicates", "dropped"].map { Int(answer[number: $0] ?? -1) }
        }

        @Test func retriedBatchesAreCountedAsDuplicates() async throws {
            try await withApp { client in
                let (token, id, first) = try await recording(client)
                let batch = [1, 2, 3].map { Fixture.after(first, metres: Double($0) * 5, seconds: Double($0) * 5) }
                #expect(counts(try await client.appendPoints(token, id, batch)) == [3, 0, 0])
                let again = try await client.appendPoints(token, id, batch)
                #expect(counts(again) == [0, 3, 0])
                #expect(again[object: "stats"][number: "points"] == 4)
                #expect(sameJSON(again["stats"], try await client.summary(token, id)["stats"]))
                // Same time as the last kept point, different place: still a duplicate.
                var sameTime = Fixture.after(batch[2], metres: 3, seconds: 0)
                sameTime.ele = 10
                #expect(counts(try await client.appendPoints(token, id, [sameTime])) == [0, 1, 0])
                #expect(try await client.points(token, id) == [first] + batch)
            }
        }

        @Test func accuracyOf50IsKeptAndWorseIsDropped() async throws {
            try await withApp { client in
                let (token, id, first) = try await recording(client)
                var good = Fixture.after(first, metres: 5, seconds: 5)
                good.acc = 50
                var bad = Fixture.after(good, metres: 5, seconds: 5)
                bad.acc = 50.5
                var zero = Fixture.after(good, metres: 10, seconds: 10)
                zero.acc = 0
                let answer = try await client.appendPoints(token, id, [good, bad, zero])
                #expect(counts(answer) == [2, 0, 1])
                #expect(try await client.points(token, id) == [first, good, zero])
            }
        }

        @Test func walkSpikesJustOver7MetresPerSecondAreDropped() async throws {
            try await withApp { client in
                let (token, id, first) = try await recording(client)
                let over = Fixture.after(first, metres: 70.5, seconds: 10)
                let under = Fixture.after(first, metres: 69.5, seconds: 10.0001)
                #expect(counts(try await client.appendPoints(token, id, [over])) == [0, 0, 1])
                #expect(counts(try await client.appendPoints(token, id, [under])) == [1, 0, 0])
                #expect(try await client.points(token, id) == [first, under])
            }
        }

        @Test func theThirdSpikeInARowIsKeptEvenAcrossRequests() async throws {
            try await withApp { client in
                let (token, id, first) = try await recording(client)
                // The phone jumps 10 km and stays there: the first two fixes are dropped as spikes, the third
                // is kept as the new reference, and the points after it are fine again.
                let far = Fixture.after(first, metres: 10_000, seconds: 10, azimuth: 0)
                let spikes = (0..<3).map { Fixture.after(far, metres: Double($0), seconds: Double($0) * 10) }
                var inaccurate = Fixture.after(far, metres: 1, seconds: 5)
                inaccurate.acc = 80
                let duplicate = TrackPoint(lat: 52.6, lon: 13.5, t: first.t)
                #expect(counts(try await client.appendPoints(token, id, [spikes[0]])) == [0, 0, 1])
                // Accuracy drops and duplicates neither count nor break the run.
                #expect(
                    counts(try await client.appendPoints(token, id, [duplicate, inaccurate, spikes[1]])) == [0, 1, 2])
                let third = try await client.append(
                    token, id, Fixture.ndjson([spikes[2]]), contentType: "application/x-ndjson")
                #expect(third.status == .ok)
                #expect(counts(third.json) == [1, 0, 0])
                let next = Fixture.after(spikes[2], metres: 10, seconds: 10)
                #expect(counts(try await client.appendPoints(token, id, [next])) == [1, 0, 0])
                #expect(try await client.points(token, id) == [first, spikes[2], next])
                #expect(try await client.summary(token, id)[object: "stats"][number: "points"] == 3)

                // A kept point resets the run: two more spikes are dropped again.
                let back = [1, 2].map { Fixture.after(first, metres: Double($0), seconds: 40 + Double($0)) }
                #expect(counts(try await client.appendPoints(token, id, back)) == [0, 0, 2])
            }
        }

        @Test func jsonBodiesAreSortedStablyWhileStreamsKeepArrivalOrder() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let base = TrackPoint(lat: 52.5, lon: 13.4, t: Fixture.t0)
                let p30 = Fixture.after(base, metres: 30, seconds: 30)
                let p10 = Fixture.after(base, metres: 10, seconds: 10)
                let p20 = Fixture.after(base, metres: 20, seconds: 20)
                var p10b = Fixture.after(base, metres: 11, seconds: 10)
                p10b.ele = 1
                let sent = [p30, p10, p20, p10b]

                let sorted = try await client.createRoute(token, recording: true).requiredID()
                #expect(counts(try await client.appendPoints(token, sorted, sent)) == [3, 1, 0])
                #expect(try await client.points(token, sorted) == [p10, p20, p30])

                let streamed = try await client.createRoute(token, recording: true).requiredID()
                let ndjson = try await client.append(
                    token, streamed, Fixture.ndjson(sent), contentType: "application/x-ndjson")
                #expect(counts(ndjson.json) == [1, 3, 0])
                #expect(try await client.points(token, streamed) == [p30])

                let text = try await client.createRoute(token, recording: true).requiredID()
                let phone = try await client.append(token, text, Fixture.text(sent), contentType: "text/plain")
                #expect(counts(phone.json) == [1, 3, 0])

                // On create too: a JSON body is sorted, a stream is not.
                let created = try await client.createRoute(token, sent).requiredID()
                #expect(try await client.points(token, created) == [p10, p20, p30])
                let createdStream = try await client.createStreamed(token, sent).requiredID()
                #expect(try await client.points(token, createdStream) == [p30])
            }
        }

        @Test func manyMixedAppendsGiveExactlyTheStatsOfOneUpload() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                var points = Fixture.track(420, interval: 3, speed: 2.2)
                for i in stride(from: 0, to: points.count, by: 7) { points[i].acc = Double(i % 60) }
                // Batches of varying sizes, with resent overlaps and spikes that straddle requests.
                var batches: [[TrackPoint]] = []
                var start = 0
                var size = 1
                while start < points.count {
                    let end = min(points.count, start + size)
                    var batch = Array(points[max(0, start - size % 3)..<end])
                    if size % 4 == 0, let last = batch.last {
                        batch.append(Fixture.after(last, metres: 5_000, seconds: 1))  // a spike
                    }
                    batches.append(batch)
                    start = end
                    size = size % 37 + 5
                }
                let id =
                    try await client.createRoute(token, name: "Live", activity: "run", recording: true).requiredID()
                var sums = [0, 0, 0]
                for (i, batch) in batches.enumerated() {
                    let response: TestResponse
                    switch i % 3 {
                    case 0: response = try await client.append(token, id, Fixture.jsonBody(batch))
                    case 1:
                        response = try await client.append(
                            token, id, Fixture.ndjson(batch), contentType: "application/x-ndjson")
                    default:
                        let plain = batch.map(\.withoutAccuracy)
                        batches[i] = plain
                        response = try await client.append(token, id, Fixture.text(plain), contentType: "text/plain")
                    }
                    #expect(response.status == .ok, "batch \(i): \(response.text.prefix(200))")
                    let c = counts(response.json)
                    #expect(c.reduce(0, +) == batches[i].count, "batch \(i)")
                    sums = zip(sums, c).map { $0 + $1 }
                }
                let finished = try await client.send(.post, "/v1/routes/\(id)/finish", token: token).json
                let all = batches.flatMap { $0 }
                let once = try await client.createStreamed(token, all, query: "name=Once&activity=run")
                #expect(
                    sameJSON(finished["stats"], once["stats"]),
                    "appended: \(finished["stats"]!)\nonce: \(once["stats"]!)")
                #expect(finished[object: "stats"][number: "points"] == Double(sums[0]))
                #expect(sums[1] > 0 && sums[2] > 0)
                let splits = finished[object: "stats"]["splits"] as? [JSONObject] ?? []
                #expect(splits.count >= 2)
                #expect(splits.map { $0[number: "km"] } == (1...splits.count).map { Double($0) })
                #expect(splits.allSatisfy { $0[number: "pace_s_per_km"] == $0[number: "time_s"] })
                #expect(finished["started_at"] as? String == once["started_at"] as? String)
                #expect(finished["ended_at"] as? String == once["ended_at"] as? String)
                let appended = try await client.points(token, id)
                #expect(appended == (try await client.points(token, once.requiredID())))
                #expect(appended.count == sums[0])
            }
        }
    }
}
