import Foundation
import MongoTestSupport
import Testing

@testable import Mongo

/// Rough insert rates for 1000-point buckets; prints, asserts nothing about speed.
/// Run with `MONGO_BENCH=1 swift test -c release --filter InsertRateBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MONGO_BENCH"] == "1")) struct InsertRateBenchmark {
    @Test func bucketInsertRate() async throws {
        let buckets = 200
        let build = ContinuousClock.now
        let documents = (0..<buckets).map { CRUDTests.bucket(route: "bench", seq: $0) }
        let built = ContinuousClock.now - build

        let encode = ContinuousClock.now
        var bytes = 0
        for document in documents { bytes += try document.bsonBytes().count }
        let encoded = ContinuousClock.now - encode

        let encodedDocuments = try documents.map { try $0.bsonBytes() }
        let decode = ContinuousClock.now
        for document in encodedDocuments { _ = try BSONDocument(bsonBytes: document) }
        let decoded = ContinuousClock.now - decode

        print(
            "BENCH \(buckets) buckets (\(bytes / buckets) bytes each): build \(built), encode \(encoded), decode \(decoded)"
        )

        try await TestDatabase.with("bench") { db in
            let points = db.collection("points")
            let sequential = ContinuousClock.now
            for document in documents.prefix(buckets / 2) { try await points.insertOne(document) }
            let sequentialTime = ContinuousClock.now - sequential
            print("BENCH sequential: \(Self.rate(buckets / 2, sequentialTime))")

            let rest = Array(documents.suffix(buckets / 2))
            let concurrent = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for i in stride(from: worker, to: rest.count, by: 4) { try await points.insertOne(rest[i]) }
                    }
                }
                try await group.waitForAll()
            }
            print("BENCH 4 concurrent: \(Self.rate(rest.count, ContinuousClock.now - concurrent))")

            let read = ContinuousClock.now
            let all = try await points.find(["route": "bench"])
            print("BENCH find all \(all.count) buckets: \(ContinuousClock.now - read)")
            #expect(all.count == buckets)
        }
    }

    static func rate(_ count: Int, _ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return String(
            format: "%.0f buckets/s = %.0f points/s (%.1f ms per bucket)", Double(count) / seconds,
            Double(count * 1000) / seconds, seconds * 1000 / Double(count))
    }
}
