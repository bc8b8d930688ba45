import Foundation
import Mongo
import RouteRankerCore
import RouteRankerStorage
import Testing

@testable import RouteRankerServer

/// A route deleted while it is being matched leaves no effort behind (`SegmentEfforts`): the
/// interleaving where a match read the route before `DELETE` and stores its efforts after it.
@Suite struct SegmentEffortsRaceTests {
    typealias F = SegmentFixture

    @Test func aMatchThatStoresAfterTheRouteWasDeletedLeavesNoEffortOrArea() async throws {
        try await withAppAndDatabase { client, database in
            let me = try await client.register("me")
            let segment = try await client.newSegment(me)
            let route = try await client.newTrack(me, F.straight)
            #expect(try await client.efforts(me, segment).count == 1)
            // What a match running alongside the deletion had read.
            let routes = RouteRepository(database: database)
            let stale = try #require(try await routes.find(id: route))

            #expect(try await client.send(.delete, "/v1/routes/\(route)", token: me).status == .noContent)
            let matcher = SegmentEfforts(
                segments: SegmentRepository(database: database), efforts: EffortRepository(database: database),
                areas: RouteAreaRepository(database: database), routes: routes,
                buckets: PointBuckets(database: database))
            // Its points are gone with the route; the match still has what it had read of them.
            try await matcher.match(stale)

            let left = try await database.collection("efforts").find(["route": .string(route)])
            #expect(left.isEmpty, "efforts of the deleted route: \(left.count)")
            #expect(try await database.collection("route_areas").find(["_id": .string(route)]).isEmpty)
            #expect(try await client.efforts(me, segment).isEmpty)
        }
    }
}
