import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import RouteRankerCore
import RouteRankerStorage
import TestSupport
import Testing

@testable import RouteRankerServer

/// Where routes start lives in `route_starts`, out of the route document that every append
/// rewrites; "near" takes candidates from it and confirms them with the routes; routes stored by
/// earlier versions (the start in the route document) are moved once per database.
@Suite struct RouteStartsTests {
    typealias F = SharingFixture

    static func near(_ client: any TestClientProtocol, _ token: String) async throws -> [String] {
        let response = try await client.send(
            .get, "/v1/routes?near=\(F.start.lat),\(F.start.lon)&radius_m=500", token: token)
        #expect(response.status == .ok)
        return F.ids(response)
    }

    @Test func theStartIsWrittenOnceBesideTheRouteAndGoesWithIt() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada")
            let empty = try await client.newSharedRoute(ada, name: "Empty", points: [], recording: true)
            #expect(try await database.collection("route_starts").findOne(["_id": .string(empty)]) == nil)

            let points = F.line(20)
            _ = try await client.appendPoints(ada, empty, Array(points[..<10]))
            let start = try #require(try await database.collection("route_starts").findOne(["_id": .string(empty)]))
            #expect(start.string("owner") == "ada")
            let coordinates = start.document("start")?.array("coordinates")?.compactMap(\.doubleValue)
            #expect(coordinates == [points[0].lon, points[0].lat])
            #expect(try await database.collection("routes").findOne(["_id": .string(empty)])?["start"] == nil)
            #expect(try await Self.near(client, ada) == [empty])

            // Later appends leave it alone: the route's first point does not move.
            _ = try await database.collection("route_starts").updateOne(
                filter: ["_id": .string(empty)], update: ["$set": ["marker": true]])
            _ = try await client.appendPoints(ada, empty, Array(points[10...]))
            let after = try await database.collection("route_starts").findOne(["_id": .string(empty)])
            #expect(after?.bool("marker") == true)

            #expect(try await client.send(.delete, "/v1/routes/\(empty)", token: ada).status == .noContent)
            #expect(try await database.collection("route_starts").findOne(["_id": .string(empty)]) == nil)
            #expect(try await Self.near(client, ada).isEmpty)
        }
    }

    /// A start written before a commit that never came (or whose route is gone) lists nothing.
    @Test func aStartWithoutItsRouteListsNothing() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada")
            let route = try await client.newSharedRoute(ada)
            let starts = RouteStartRepository(database: database)
            try await starts.record(route: F.madeUpRoute, owner: "ada", start: F.start)
            #expect(try await Self.near(client, ada) == [route])
        }
    }

    @Test func startsStoredInRouteDocumentsAreMovedOnce() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada")
            let route = try await client.newSharedRoute(ada)
            // The layout of an earlier version: the start in the route document, under an index.
            let routes = database.collection("routes")
            let point: BSONValue = ["type": "Point", "coordinates": [.double(F.start.lon), .double(F.start.lat)]]
            _ = try await routes.updateOne(filter: ["_id": .string(route)], update: ["$set": ["start": point]])
            try await routes.createIndexes([MongoIndex(keys: ["start": "2dsphere"], name: "start_2dsphere")])
            _ = try await database.collection("route_starts").deleteMany([:])
            _ = try await database.collection("migrations").deleteOne(["_id": "route_starts"])
            #expect(try await Self.near(client, ada).isEmpty)

            let repository = RouteRepository(database: database)
            try await repository.starts.moveStartsOutOfRoutes(routes, now: Date())
            #expect(try await Self.near(client, ada) == [route])
            let indexes = try await database.runCommand(["listIndexes": "routes"])
            let names = (indexes.document("cursor")?.array("firstBatch") ?? []).compactMap {
                $0.documentValue?.string("name")
            }
            #expect(names.contains("owner_started_at"))
            #expect(!names.contains("start_2dsphere"))

            // Once per database.
            _ = try await database.collection("route_starts").deleteMany([:])
            try await repository.starts.moveStartsOutOfRoutes(routes, now: Date())
            #expect(try await Self.near(client, ada).isEmpty)
        }
    }
}
