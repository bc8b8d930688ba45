import Foundation
import Logging
import Mongo
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import TestSupport
import Testing

/// What request handling relies on from `UserStore`, checked on the real repository against the
/// test database and on the in-memory store the database-free tests use: the two answer alike, so
/// a test on the fake says what it would say on the database.
@Suite struct UserStoreContractTests {
    enum Kind: String, CaseIterable, Sendable { case database, memory }

    /// Runs `body` on a fresh store of `kind`.
    static func withStore(_ kind: Kind, _ body: (any UserStore) async throws -> Void) async throws {
        switch kind {
        case .memory:
            try await body(InMemoryUserStore())
        case .database:
            let client = try MongoClient(
                uri: TestEnvironment.mongoURI, logger: Logger(label: "test"), defaultPoolSize: 2)
            defer { client.shutdown() }
            let database = MongoDatabase(client: client, name: TestEnvironment.uniqueDatabaseName("users"))
            for (name, indexes) in Indexes.all where name == "users" {
                try await database.collection(name).createIndexes(indexes)
            }
            try await body(UserRepository(database: database))
        }
    }

    static func user(_ id: String, friends: [String] = []) -> UserRecord {
        UserRecord(
            id: id, name: "Name of \(id)", friends: friends, tokenHash: Secret.hash("token-\(id)"),
            createdAt: Date(timeIntervalSince1970: 1_763_800_000))
    }

    @Test(arguments: Kind.allCases)
    func anIDIsTakenOnceAndFoundByIDOrTokenDigest(kind: Kind) async throws {
        try await Self.withStore(kind) { (users: any UserStore) async throws in
            #expect(try await users.insert(Self.user("ada")))
            #expect(try await !users.insert(Self.user("ada")))
            #expect(try await users.insert(Self.user("ADA")))  // ids are case-sensitive
            #expect(try await users.find(id: "ada") == Self.user("ada"))
            #expect(try await users.find(id: "nobody") == nil)
            #expect(try await users.find(tokenHash: Secret.hash("token-ada"))?.id == "ada")
            #expect(try await users.find(tokenHash: Secret.hash("token-none")) == nil)
        }
    }

    @Test(arguments: Kind.allCases)
    func updatesChangeOnlyWhatTheySet(kind: Kind) async throws {
        try await Self.withStore(kind) { (users: any UserStore) async throws in
            _ = try await users.insert(Self.user("ada", friends: ["b"]))
            let renamed = try await users.update(id: "ada", name: "Ada L.", friends: nil)
            #expect(renamed?.name == "Ada L." && renamed?.friends == ["b"])
            let refriended = try await users.update(id: "ada", name: nil, friends: ["c", "d"])
            #expect(refriended?.name == "Ada L." && refriended?.friends == ["c", "d"])
            #expect(try await users.update(id: "nobody", name: "x", friends: nil) == nil)
            try await users.replaceTokenHash(id: "ada", with: Secret.hash("new"))
            #expect(try await users.find(tokenHash: Secret.hash("token-ada")) == nil)
            #expect(try await users.find(tokenHash: Secret.hash("new"))?.id == "ada")
        }
    }

    @Test(arguments: Kind.allCases)
    func namesAndZonesOfTheRegisteredAmongIDs(kind: Kind) async throws {
        try await Self.withStore(kind) { (users: any UserStore) async throws in
            _ = try await users.insert(Self.user("ada"))
            _ = try await users.insert(Self.user("bob"))
            let names = try await users.names(of: ["bob", "ghost", "ada", "bob"])
            #expect(Set(names.map(\.id)) == ["ada", "bob"] && names.count == 2)
            #expect(names.first { $0.id == "bob" }?.name == "Name of bob")
            #expect(try await users.names(of: []).isEmpty)
            let zones = [PrivacyZone(lat: 52.52, lon: 13.405, radiusM: 200)]
            try await users.replacePrivacyZones(id: "ada", with: zones)
            try await users.replacePrivacyZones(id: "ada", with: zones)
            let privacy = try await users.privacy(of: ["ada", "bob", "ghost"])
            #expect(Set(privacy.keys) == ["ada", "bob"])
            #expect(privacy["ada"]?.zones == zones && privacy["ada"]?.version == 2)
            #expect(privacy["bob"]?.zones == [] && privacy["bob"]?.version == 0)
            #expect(try await users.find(id: "ada")?.zonesVersion == 2)
        }
    }
}
