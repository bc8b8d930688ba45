import Foundation
import HummingbirdTesting
import Mongo
import RouteRankerModels
import RouteRankerStorage
import Testing

/// Issue 43, row 8: a route may hold 1,000 annotations of 1,000 characters (a megabyte), so a page
/// of 200 routes, a group of 1,000 or the inbox cannot carry them: lists read routes without their
/// annotations and their summaries leave the key out; the route's own read has them.
@Suite struct ListedAnnotationsTests {
    static let notes = #"[{"lat":48.137,"lon":11.576,"text":"Bakery"},{"lat":48.137,"lon":11.58,"text":"Bridge"}]"#

    @Test func listsLeaveAnnotationsOutAndTheRouteHasThem() async throws {
        try await withAppAndDatabase { client, database in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let route = try await client.newSharedRoute(ada, annotations: Self.notes)
            #expect(try await client.shareRoute(ada, route, to: "bob").status == .created)
            let group = try await client.send(
                .post, "/v1/groups", token: ada, json: #"{"name":"G","routes":["\#(route)"]}"#)
            let groupID = try #require(group.json["id"] as? String)

            let own = try await client.send(.get, "/v1/routes/\(route)", token: ada)
            #expect((own.json["annotations"] as? [Any])?.count == 2)
            let start = SharingFixture.start
            let near = "/v1/routes?near=\(start.lat),\(start.lon)&radius_m=1000"
            for (token, path, key) in [
                (ada, "/v1/routes", "items"), (ada, near, "items"), (bob, near, "items"),
                (ada, "/v1/groups/\(groupID)", "routes"),
            ] {
                let answer = try await client.send(.get, path, token: token)
                #expect(answer.status == .ok, "\(path)")
                let items = try #require(answer.json[key] as? [[String: Any]], "\(path): \(answer.text.prefix(200))")
                #expect(items.count == 1, "\(path)")
                #expect(items.first?["annotations"] == nil, "\(path) lists annotations")
                #expect(items.first?["stats"] != nil, "\(path)")
            }

            // A route read as lists read it cannot be written back (that would drop its annotations).
            let listed = try #require(
                try await RouteRepository(database: database).find(ids: [route], annotations: false)[route])
            #expect(!listed.annotationsLoaded)
            #expect(throws: StorageError.self) { _ = try listed.document }
            let whole = try #require(try await RouteRepository(database: database).find(id: route))
            #expect(whole.annotationsLoaded && whole.annotations.count == 2)
        }
    }
}
