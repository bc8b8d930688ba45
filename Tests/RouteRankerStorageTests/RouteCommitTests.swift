import Foundation
import Mongo
import MongoTestSupport
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import Testing

/// `RouteRepository.commit`: commits of concurrent writers go to the database together
/// (`MongoCollection.updateOneCoalesced`), and each writer still learns exactly whether its own
/// commit is the one that landed.
@Suite struct RouteCommitTests {
    /// Two writers per route commit over the same version at once, as two server processes would
    /// (no route lock between them): the commits share update commands in which one statement of a
    /// pair matches and the other does not, so the reply cannot say which did. Each route ends with
    /// exactly one winner, which is the one told so, and its version is the next.
    @Test func ofTwoCommitsOverOneVersionExactlyTheOneThatLandedIsToldSo() async throws {
        try await TestDatabase.with("commits") { database in
            let routes = RouteRepository(database: database)
            var records: [StoredRoute] = []
            for index in 0..<12 {
                let route = StoredRoute(
                    new: RouteRecord(
                        id: NewID.make(), owner: "ada", name: "r\(index)", activity: .run, state: .recording,
                        createdAt: Date(timeIntervalSince1970: 1_764_000_000), annotations: [],
                        accumulator: StatsAccumulator(activity: .run), version: 1))
                try await routes.commit(route, over: 0)
                records.append(try #require(try await routes.find(id: route.id)))
            }
            let outcomes = try await withThrowingTaskGroup(of: (String, String, Bool).self) { group in
                for record in records {
                    for writer in ["a", "b"] {
                        group.addTask {
                            var next = record
                            next.name = "\(writer)-\(record.id)"
                            next.version = record.version + 1
                            do {
                                try await routes.commit(next, over: record.version, stored: record)
                                return (record.id, next.name, true)
                            } catch is VersionConflict {
                                return (record.id, next.name, false)
                            }
                        }
                    }
                }
                return try await group.reduce(into: [(String, String, Bool)]()) { $0.append($1) }
            }
            for record in records {
                let mine = outcomes.filter { $0.0 == record.id }
                #expect(mine.count == 2)
                let winners = mine.filter(\.2)
                #expect(winners.count == 1, "\(record.id): \(mine)")
                let stored = try #require(try await routes.find(id: record.id))
                #expect(stored.version == record.version + 1)
                #expect(stored.name == winners.first?.1)
            }
        }
    }
}
