import Foundation
import Logging
import Mongo
import MongoTestSupport
import TestSupport
import Testing

/// The database going away and coming back, against a SecantusDB this test starts and kills itself.
@Suite(.serialized) struct OutageTests {
    @Test(.timeLimit(.minutes(2))) func failsFastWhileDownAndRecoversByItself() async throws {
        let server = try SecantusProcess()
        try await server.start()
        // No timeouts in the URI: MongoClient's defaults must make this fail fast.
        let client = try MongoClient(uri: server.plainURI, logger: Logger(label: "OutageTests"))
        defer { client.shutdown() }
        let db = MongoDatabase(client: client, name: "outage")
        let docs = db.collection("docs")
        try await db.ping()
        try await docs.insertOne(["_id": "before", "n": 1])

        server.stop()
        for attempt in ["ping", "insert", "find", "transaction"] {
            let started = ContinuousClock.now
            let error = await mongoError {
                switch attempt {
                case "ping": try await db.ping()
                case "insert": try await docs.insertOne(["_id": "during"])
                case "find": _ = try await docs.find()
                default: try await db.transaction { try $0.collection("docs").insertOne(["_id": "during"]) }
                }
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.isUnavailable == true, "\(attempt) while down: \(String(describing: error))")
            // About the 2 s selection timeout the client sets (libmongoc's own is 30 s); generous,
            // for a machine busy with the rest of the suite.
            #expect(elapsed < .seconds(12), "\(attempt) took \(elapsed) to fail")
        }

        try await server.start()
        let back = ContinuousClock.now
        var recovered = false
        while ContinuousClock.now - back < .seconds(10) {
            if (try? await db.ping()) != nil {
                recovered = true
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let recovery = ContinuousClock.now - back
        #expect(recovered, "no successful ping within 10 s of the database accepting connections")
        // Within a heartbeat or two (500 ms, set by the client) on a quiet machine; generous, for
        // one busy with the rest of the suite.
        #expect(recovery < .seconds(10), "recovery took \(recovery)")
        // The write acknowledged before the crash (w: majority, j: true) survived the SIGKILL.
        #expect(try await docs.findOne(["_id": "before"]) == ["_id": "before", "n": 1])
        try await docs.insertOne(["_id": "after"])
        #expect(try await docs.count() == 2)
        client.shutdown()  // before the server goes, so ending the sessions does not wait for it
        server.stop()
    }
}
