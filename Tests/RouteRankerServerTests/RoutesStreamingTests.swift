import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import RouteRankerCore
import Testing

extension RouteTests {
    /// Big streamed bodies, bucket boundaries, atomic streams and concurrent appends.
    ///
    /// The router test client hands a body to the server in 32 KiB pieces, so every body here over
    /// 32 KiB reaches the NDJSON/text readers in chunks that split lines (and, below, a UTF-8
    /// character) wherever the 32 KiB boundary falls.
    @Suite struct RoutesStreamingTests {
        static let chunk = 32 * 1024

        /// The sizes of the route's committed storage: each full bucket the route document names
        /// (in `points`), then its open tail (in the route document itself).
        func bucketSizes(_ database: MongoDatabase, _ id: String) async throws -> [Int] {
            let route = try #require(try await database.collection("routes").findOne(["_id": .string(id)]))
            let writers = (route.array("buckets") ?? []).compactMap(\.stringValue)
            let stored = try await database.collection("points").find(
                ["route": .string(id)], sort: ["seq": 1], limit: 0)
            let committed = stored.filter { document in
                guard let seq = document.int("seq"), seq < writers.count else { return false }
                return document.string("writer") == writers[seq]
            }
            #expect(committed.map { $0.int("seq") } == Array(0..<writers.count), "bucket seqs of \(id)")
            let tail = (route.document("tail")?.binary("t")?.count ?? -8) / 8
            return committed.map { $0.array("t")?.count ?? -1 } + (tail > 0 ? [tail] : [])
        }

        @Test func aLargeChunkedNdjsonStreamComesBackWholeAndInOrder() async throws {
            try await withAppAndDatabase { client, database in
                let token = try await client.register("ada")
                let points = Fixture.track(5300, interval: 1, speed: 3)
                // The first line carries an unknown member whose "é" straddles the first chunk boundary.
                let prefix = #"{"note":""#
                let padding = String(repeating: "a", count: Self.chunk - 1 - prefix.utf8.count)
                let first = prefix + padding + "é\"," + Fixture.json(points[0]).dropFirst()
                let body = first + "\n" + Fixture.ndjson(Array(points.dropFirst()))
                let bytes = Array(body.utf8)
                #expect(bytes[Self.chunk - 1] == 0xC3 && bytes[Self.chunk] == 0xA9)
                let boundaries = stride(from: Self.chunk, to: bytes.count, by: Self.chunk)
                #expect(boundaries.filter { bytes[$0 - 1] != UInt8(ascii: "\n") }.count >= 5)

                let created = try await client.send(
                    .post, "/v1/routes?name=Big&activity=ride", token: token, json: body,
                    contentType: "application/x-ndjson")
                let summary = try client.expectCreated(created)
                let id = try summary.requiredID()
                let stats = summary[object: "stats"]
                #expect(stats[number: "points"] == 5300)
                #expect(stats[number: "duration_s"] == 5299)
                #expect(abs(stats[number: "distance_m"]! - Fixture.length(points)) < 1e-6)
                #expect(try await client.points(token, id) == points)
                #expect(try await bucketSizes(database, id) == [1000, 1000, 1000, 1000, 1000, 300])
                let csv = try await client.send(.get, "/v1/routes/\(id)/points?format=csv", token: token)
                #expect(csv.text.split(separator: "\n").count == 5301)
            }
        }

        @Test func aLargeChunkedTextStreamComesBackWhole() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(3000, interval: 2)
                let body = points.map { p in " \(p.lat) ,\(p.lon),  \(p.t),\(p.ele!)\n" }.joined(separator: "#") + "#"
                #expect(body.utf8.count > 3 * Self.chunk)
                let summary = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes?name=Text", token: token, json: body, contentType: "text/plain"))
                #expect(try await client.points(token, summary.requiredID()) == points)
            }
        }

        @Test func streamsAreExemptFromThe16MiBCap() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                // JSON whitespace makes a big body of few points. (The phone-text reader takes the same
                // path; 17 MiB through both readers would take too long in a debug build.)
                let points = Fixture.track(360)
                let pad = String(repeating: " ", count: 16_000)
                let ndjson = points.map { Fixture.json($0).replacingOccurrences(of: ",", with: ",\(pad)") + "\n" }
                    .joined()
                #expect(ndjson.utf8.count > 16 * 1024 * 1024 + 100_000)
                let streamed = try client.expectCreated(
                    await client.send(
                        .post, "/v1/routes", token: token, json: ndjson, contentType: "application/x-ndjson"))
                #expect(try await client.points(token, streamed.requiredID()) == points)
            }
        }

        @Test(arguments: [999, 1000, 1001, 2500])
        func routesAroundBucketBoundariesComeBackComplete(count: Int) async throws {
            try await withAppAndDatabase { client, database in
                let token = try await client.register("ada")
                let points = Fixture.track(count, interval: 2)
                for summary in [
                    try await client.createStreamed(token, points), try await client.createRoute(token, points),
                ] {
                    let id = try summary.requiredID()
                    #expect(summary[object: "stats"][number: "points"] == Double(count))
                    #expect(try await client.points(token, id) == points)
                    let sizes = try await bucketSizes(database, id)
                    #expect(sizes.reduce(0, +) == count && sizes.dropLast().allSatisfy { $0 == 1000 })
                }
            }
        }

        @Test func appendsThatCrossBucketBoundaries() async throws {
            try await withAppAndDatabase { client, database in
                let token = try await client.register("ada")
                let points = Fixture.track(2100, interval: 2)
                let id = try await client.createRoute(token, recording: true).requiredID()
                let first = try await client.append(token, id, Fixture.jsonBody(Array(points[0..<700])))
                let second = try await client.append(
                    token, id, Fixture.ndjson(Array(points[700..<1400])), contentType: "application/x-ndjson")
                let third = try await client.append(
                    token, id, Fixture.text(Array(points[1400..<2100])), contentType: "text/plain")
                for response in [first, second, third] {
                    #expect(response.status == .ok)
                    #expect(response.json[number: "accepted"] == 700)
                }
                #expect(third.json[object: "stats"][number: "points"] == 2100)
                #expect(try await client.points(token, id) == points)
                #expect(try await bucketSizes(database, id) == [1000, 1000, 100])
            }
        }

        /// Small appends add to the packed tail without decoding it; the append that reaches 1000
        /// decodes it into a bucket. Every third point has no elevation and some an accuracy, so the
        /// packed absence (NaN) and presence of both come back as sent, across appends.
        @Test func smallAppendsGrowTheTailUntilItFillsABucket() async throws {
            try await withAppAndDatabase { client, database in
                let token = try await client.register("ada")
                let points: [TrackPoint] = Fixture.track(1012, interval: 2).enumerated().map {
                    (index: Int, p: TrackPoint) -> TrackPoint in
                    let ele: Double? = index % 3 == 0 ? nil : p.ele
                    let acc: Double? = index % 4 == 0 ? 5 : nil
                    return TrackPoint(lat: p.lat, lon: p.lon, t: p.t, ele: ele, acc: acc)
                }
                let id = try await client.createRoute(token, recording: true).requiredID()
                var sent = 0
                // Tail sizes after each append: 1, 11, 511, 999, then a full bucket, then 12 more.
                for (size, expected) in [
                    (1, [1]), (10, [11]), (500, [511]), (488, [999]), (1, [1000]), (12, [1000, 12]),
                ] {
                    let batch = Array(points[sent..<sent + size])
                    sent += size
                    let response = try await client.append(
                        token, id, Fixture.ndjson(batch), contentType: "application/x-ndjson")
                    #expect(response.status == .ok)
                    #expect(response.json[number: "accepted"] == Double(size))
                    #expect(try await bucketSizes(database, id) == expected, "after \(sent) points")
                    #expect(try await client.points(token, id) == Array(points[0..<sent]), "after \(sent) points")
                }
            }
        }

        @Test func aStreamThatFailsLateLeavesNothingVisible() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let points = Fixture.track(3200, interval: 1)
                let id = try await client.createRoute(token, Array(points[0..<700]), recording: true).requiredID()
                let before = try await client.summary(token, id)
                let etag = try await client.send(.get, "/v1/routes/\(id)/points", token: token).headers[.eTag]

                // 2,500 good points (two full buckets written on the way), then a bad line.
                let body = Fixture.ndjson(Array(points[700..<3200])) + #"{"lat":52.5,"lon":13.4}"# + "\n"
                let failed = try await client.append(token, id, body, contentType: "application/x-ndjson")
                #expect(failed.status == .badRequest)
                let error = failed.json[object: "error"]
                #expect(error["field"] as? String == "points")
                #expect(error[number: "index"] == 2500)
                #expect(error["key"] as? String == "t")
                #expect(sameJSON(try await client.summary(token, id), before))
                #expect(try await client.points(token, id) == Array(points[0..<700]))
                let unchanged = try await client.send(
                    .get, "/v1/routes/\(id)/points", token: token, headers: [.ifNoneMatch: etag ?? "none"])
                #expect(unchanged.status == .notModified)

                // The resend without the bad line goes through, over whatever the failed one wrote.
                let retried = try await client.append(
                    token, id, Fixture.ndjson(Array(points[700..<3200])), contentType: "application/x-ndjson")
                #expect(retried.json[number: "accepted"] == 2500)
                #expect(try await client.points(token, id) == points)

                // The same on create: a stream with a bad last line creates nothing.
                let bad = Fixture.ndjson(points) + "{\"lat\":91,\"lon\":0,\"t\":1}\n"
                let refused = try await client.send(
                    .post, "/v1/routes", token: token, json: bad, contentType: "application/x-ndjson")
                #expect(refused.status == .badRequest)
                #expect(refused.json[object: "error"][number: "index"] == 3200)
                #expect(try await client.routeTotal(token) == 1)
            }
        }

        @Test func concurrentAppendsStoreEveryKeptPointExactlyOnce() async throws {
            try await withApp { client in
                let token = try await client.register("ada")
                let id = try await client.createRoute(token, recording: true).requiredID()
                // Eight writers whose times interleave along one straight 1 m/s line: whatever order the
                // batches land in, nothing is a spike, and only arrival order decides what is a duplicate.
                let tasks = 8
                let perTask = 200
                let origin = TrackPoint(lat: 52.5, lon: 13.4, t: Fixture.t0)
                let batches = (0..<tasks).map { k in
                    (0..<perTask).map { i -> TrackPoint in
                        let s = Double(i * tasks + k)
                        return Fixture.after(origin, metres: s, seconds: s, azimuth: 30)
                    }
                }
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for (k, batch) in batches.enumerated() {
                        group.addTask {
                            k % 2 == 0
                                ? try await client.append(token, id, Fixture.jsonBody(batch))
                                : try await client.append(
                                    token, id, Fixture.ndjson(batch), contentType: "application/x-ndjson")
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                var accepted = 0
                for answer in answers {
                    #expect(answer.status == .ok, "\(answer.text.prefix(200))")
                    let counts = ["accepted", "duplicates", "dropped"].map { Int(answer.json[number: $0] ?? -1) }
                    #expect(counts.reduce(0, +) == perTask)
                    #expect(counts[2] == 0)
                    accepted += counts[0]
                }
                let summary = try await client.summary(token, id)
                #expect(summary[object: "stats"][number: "points"] == Double(accepted))
                let stored = try await client.points(token, id)
                #expect(stored.count == accepted)
                #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.t < $1.t })
                let sent = Set(batches.flatMap { $0 })
                #expect(stored.allSatisfy { sent.contains($0) })
                #expect(accepted >= perTask)
            }
        }
    }
}
