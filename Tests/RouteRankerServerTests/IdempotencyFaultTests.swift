import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import RouteRankerStorage
import TestSupport
import Testing

/// An `Idempotency-Key` is never left stuck, and one key never makes two routes, whatever write of
/// a create fails and however: the database's own fault injection (`failCommand`) fails one
/// `insert` or `update` of the server's — a write concern error (the write applied, its answer an
/// error) or a dropped connection — and the phone retries with the same key until it gets a `2xx`.
@Suite(.serialized) struct IdempotencyFaultTests {
    /// The faults, each on the `n`th matching command of the server's create, `times` in a row; a
    /// dropped connection once is retried by the driver itself (a retryable write), twice is not.
    static let faults: [(name: String, data: BSONDocument, times: Int)] = [
        ("write concern error on insert", ["failCommands": ["insert"], "writeConcernError": wce], 1),
        ("write concern error on update", ["failCommands": ["update"], "writeConcernError": wce], 1),
        ("dropped connection on insert", ["failCommands": ["insert"], "closeConnection": true], 1),
        ("dropped connection on update", ["failCommands": ["update"], "closeConnection": true], 1),
        ("dropped connection twice on insert", ["failCommands": ["insert"], "closeConnection": true], 2),
        ("dropped connection twice on update", ["failCommands": ["update"], "closeConnection": true], 2),
    ]
    static let wce: BSONValue = ["code": 64, "errmsg": "waiting for replication timed out"]

    @Test func everyRetriedCreateEndsWithExactlyOneRoute() async throws {
        let database = try SecantusProcess(testCommands: true)
        try await database.start()
        let injector = try MongoClient(uri: database.uri, logger: Logger(label: "fault-injector"), appName: "injector")
        defer { injector.shutdown() }
        let admin = MongoDatabase(client: injector, name: "admin")
        try await withApp(uri: database.uri) { client in
            let token = try await client.register("ada")
            let body = Fixture.jsonBody(Fixture.track(5), #""name":"Faulty""#)
            var keys = 0
            var refusedFirst: [String: Int] = [:]
            for (name, data, times) in Self.faults {
                // The nth insert or update of a create: the key's claim, the route's start, the
                // route itself, the key's outcome.
                for skip in 0..<4 {
                    var failpoint = data
                    failpoint["appName"] = .string(Storage.appName)  // the server's connections only
                    _ = try await admin.runCommand([
                        "configureFailPoint": "failCommand", "mode": ["skip": .int(skip), "times": .int(times)],
                        "data": .document(failpoint),
                    ])
                    keys += 1
                    let key = "fault-\(keys)"
                    var statuses: [HTTPResponse.Status] = []
                    for _ in 0..<4 {
                        let response = try await client.send(
                            .post, "/v1/routes", token: token, json: body,
                            headers: [HTTPField.Name("Idempotency-Key")!: key])
                        statuses.append(response.status)
                        if response.status == .created || response.status == .ok { break }
                    }
                    _ = try await admin.runCommand(["configureFailPoint": "failCommand", "mode": "off"])
                    if statuses.count > 1 { refusedFirst[name, default: 0] += 1 }
                    let last = try #require(statuses.last)
                    #expect(
                        last == .created || last == .ok, "\(name), skip \(skip): \(statuses.map(\.code))")
                    #expect(!statuses.contains(.conflict), "\(name), skip \(skip): stuck, \(statuses.map(\.code))")
                    #expect(!statuses.contains { $0.code >= 500 && $0 != .serviceUnavailable })
                    #expect(try await client.routeTotal(token) == keys, "\(name), skip \(skip): one route per key")
                }
                // The fault did reach the server's writes: some attempt of this kind was refused
                // (but a dropped connection once, which the driver's retry hides).
                #expect(
                    (refusedFirst[name, default: 0] > 0) == (data["writeConcernError"] != nil || times > 1), "\(name)")
            }
        }
    }
}
