import Foundation
import HTTPTypes
import HummingbirdTesting
import RouteRankerCore
import Testing

extension RouteTests {
    /// Streams over a real connection: `Transfer-Encoding: chunked` bodies whose chunks split lines and
    /// numbers, and connections cut mid-stream.
    @Suite struct RoutesLiveStreamTests {
        /// `bytes` in pieces of varying, mostly odd sizes (1, 2, 3 bytes among them).
        static func pieces(_ bytes: [UInt8], every size: Int) -> [[UInt8]] {
            var pieces: [[UInt8]] = []
            var start = 0
            var i = 0
            while start < bytes.count {
                let length = [size, 1, size / 2 + 1, 2, size - 7, 3][i % 6]
                pieces.append(Array(bytes[start..<min(bytes.count, start + length)]))
                start += length
                i += 1
            }
            return pieces
        }

        @Test func chunkedNdjsonAndTextWithLinesSplitAcrossChunks() async throws {
            try await withLiveApp { client, port in
                let token = try await client.register("ada")
                let points = Fixture.track(1500, interval: 2)
                let id = try await client.createRoute(token, Array(points.prefix(10)), recording: true).requiredID()
                let ndjson = Array(Fixture.ndjson(Array(points[10..<1200])).utf8)
                let chunks = Self.pieces(ndjson, every: 4999)
                #expect(chunks.count > 40)
                let headers = ["Authorization": "Bearer \(token)", "Content-Type": "application/x-ndjson"]
                let reply = try #require(
                    await RawHTTP.post(port: port, path: "/v1/routes/\(id)/points", headers: headers, chunks: chunks))
                #expect(reply.status == 200, "\(reply.body.prefix(300))")
                let answer = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? JSONObject ?? [:]
                #expect(answer[number: "accepted"] == 1190)

                let text = Array(Fixture.text(Array(points[1200...])).utf8)
                let textReply = try #require(
                    await RawHTTP.post(
                        port: port, path: "/v1/routes/\(id)/points",
                        headers: ["Authorization": "Bearer \(token)", "Content-Type": "text/plain"],
                        chunks: Self.pieces(text, every: 1999)))
                #expect(textReply.status == 200, "\(textReply.body.prefix(300))")
                #expect(try await client.points(token, id) == points)

                let created = try #require(
                    await RawHTTP.post(
                        port: port, path: "/v1/routes?name=Live&recording=true", headers: headers,
                        chunks: Self.pieces(Array(Fixture.ndjson(points).utf8), every: 8191)))
                #expect(created.status == 201, "\(created.body.prefix(300))")
                let summary = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? JSONObject ?? [:]
                #expect(try await client.points(token, summary["id"] as? String ?? "") == points)
            }
        }

        @Test func aStreamCutOffMidwayLeavesNothingVisible() async throws {
            try await withLiveApp { client, port in
                let token = try await client.register("ada")
                let points = Fixture.track(3000, interval: 1)
                let id =
                    try await client.createRoute(token, Array(points.prefix(300)), recording: true).requiredID()
                let before = try await client.summary(token, id)
                let headers = ["Authorization": "Bearer \(token)", "Content-Type": "application/x-ndjson"]
                // 2,500 complete lines (more than two buckets' worth), then the connection drops.
                let lines = (300..<2800).map { Fixture.json(points[$0]) + "\n" }
                let chunks = stride(from: 0, to: lines.count, by: 250).map {
                    Array(lines[$0..<min(lines.count, $0 + 250)].joined().utf8)
                }
                let cut = try await RawHTTP.post(
                    port: port, path: "/v1/routes/\(id)/points", headers: headers, chunks: chunks + [[]],
                    cutAfter: chunks.count)
                #expect(cut == nil)

                // The next append waits for the cut one to end; had that one been kept, this point
                // (between points 299 and 300) would be a duplicate.
                var between = points[299]
                between.t += 0.5
                let next = try await client.appendPoints(token, id, [between])
                #expect(next[number: "accepted"] == 1, "the cut-off stream was committed: \(next)")
                let after = try await client.summary(token, id)
                #expect(after[object: "stats"][number: "points"] == 301)
                #expect(try await client.points(token, id) == Array(points.prefix(300)) + [between])
                #expect(after["created_at"] as? String == before["created_at"] as? String)

                // A cut-off create leaves no route behind.
                _ = try await RawHTTP.post(
                    port: port, path: "/v1/routes?name=Cut", headers: headers, chunks: chunks + [[]],
                    cutAfter: chunks.count)
                try await Task.sleep(for: .milliseconds(700))
                #expect(try await client.routeTotal(token) == 1)
            }
        }
    }
}
