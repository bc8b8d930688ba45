import Mongo
import MongoTestSupport
import Testing

@Suite struct IndexTests {
    @Test func createsUniqueCompoundAnd2dsphereIndexes() async throws {
        try await TestDatabase.with("idx") { db in
            let shares = db.collection("shares")
            let indexes = [
                MongoIndex(keys: ["route": 1, "to": 1], unique: true),
                MongoIndex(keys: ["to": 1, "shared_at": -1], name: "by_recipient"),
                MongoIndex(keys: ["start": "2dsphere"]),
            ]
            try await shares.createIndexes(indexes)
            try await shares.createIndexes(indexes)  // again at the next start-up: no error

            let listed = try await db.runCommand(["listIndexes": "shares"])
            let specs = listed.document("cursor")?.array("firstBatch")?.compactMap(\.documentValue) ?? []
            let byName = Dictionary(
                uniqueKeysWithValues: specs.compactMap { spec in spec.string("name").map { ($0, spec) } })
            #expect(byName["route_1_to_1"]?.bool("unique") == true)
            #expect(byName["route_1_to_1"]?.document("key").map(Self.keyPattern) == "route:1,to:1")
            #expect(byName["by_recipient"]?.document("key").map(Self.keyPattern) == "to:1,shared_at:-1")
            #expect(byName["start_2dsphere"]?.document("key") == ["start": "2dsphere"])
        }
    }

    /// Key patterns compared by value, whichever integer type the server reports them in.
    static func keyPattern(_ keys: BSONDocument) -> String {
        keys.map { "\($0.key):\($0.value.intValue.map(String.init) ?? $0.value.stringValue ?? "?")" }
            .joined(separator: ",")
    }

    @Test func duplicateKeysMapToDuplicateKey() async throws {
        try await TestDatabase.with("dup") { db in
            let shares = db.collection("shares")
            try await shares.createIndexes([MongoIndex(keys: ["route": 1, "to": 1], unique: true)])
            try await shares.insertOne(["_id": 1, "route": "r", "to": "ann"])
            try await shares.insertOne(["_id": 2, "route": "r", "to": "bob"])

            let sameID = await mongoError { try await shares.insertOne(["_id": 1, "route": "x", "to": "y"]) }
            #expect(sameID?.isDuplicateKey == true)
            let sameKey = await mongoError { try await shares.insertOne(["route": "r", "to": "ann"]) }
            #expect(sameKey?.isDuplicateKey == true)
            let inBulk = await mongoError {
                try await shares.insertMany([["route": "s", "to": "ann"], ["route": "r", "to": "bob"]])
            }
            #expect(inBulk?.isDuplicateKey == true)
            let byUpdate = await mongoError {
                try await shares.updateOne(filter: ["_id": 2], update: ["$set": ["to": "ann"]])
            }
            #expect(byUpdate?.isDuplicateKey == true)
            #expect(try await shares.count() == 3)
        }
    }

    /// Geo queries a 2dsphere index serves. SecantusDB quirk: `$near`/`$nearSphere` filter by
    /// `$maxDistance` but do not sort by distance (MongoDB does); `$geoNear` sorts correctly.
    @Test func geoQueries() async throws {
        try await TestDatabase.with("geo") { db in
            let places = db.collection("places")
            try await places.createIndexes([MongoIndex(keys: ["loc": "2dsphere"])])
            // Points 0, ~680, ~1360, ~2040 m east of the query point, inserted far-to-near.
            try await places.insertMany(
                (0..<4).reversed().map { i in
                    [
                        "_id": .int(i),
                        "loc": ["type": "Point", "coordinates": [.double(13.4 + Double(i) * 0.01), 52.5]],
                    ]
                })
            let here: BSONValue = ["type": "Point", "coordinates": [13.4, 52.5]]

            let nearest = try await places.aggregate([
                ["$geoNear": ["near": here, "distanceField": "distance", "maxDistance": 1500, "spherical": true]]
            ])
            #expect(nearest.map { $0.int("_id") } == [0, 1, 2])
            #expect(nearest.map { ($0.double("distance") ?? -1).rounded() } == [0, 678, 1355])

            let near = try await places.find(["loc": ["$near": ["$geometry": here, "$maxDistance": 1500]]])
            #expect(Set(near.compactMap { $0.int("_id") }) == [0, 1, 2])
            let nearSphere = try await places.find(["loc": ["$nearSphere": ["$geometry": here, "$maxDistance": 1500]]])
            #expect(Set(nearSphere.compactMap { $0.int("_id") }) == [0, 1, 2])

            let box: BSONValue = [
                "type": "Polygon",
                "coordinates": [
                    [[13.39, 52.49], [13.415, 52.49], [13.415, 52.51], [13.39, 52.51], [13.39, 52.49]]
                ],
            ]
            let within = try await places.find(["loc": ["$geoWithin": ["$geometry": box]]], sort: ["_id": 1])
            #expect(within.map { $0.int("_id") } == [0, 1])
        }
    }
}
