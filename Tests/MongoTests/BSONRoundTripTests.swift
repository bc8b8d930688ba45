import CLibMongoC
import Foundation
import Testing

@testable import Mongo

/// Every type through BSON bytes and through libbson's `bson_t`, and cross-checked against libbson's
/// own reading and writing, so the Swift codec cannot agree only with itself.
@Suite struct BSONRoundTripTests {
    static let date = Date(timeIntervalSince1970: 1_763_769_119.123)
    static let oid = BSONObjectID(hex: "65f1a2b3c4d5e6f708192a3b")!

    static let everyType: BSONDocument = [
        "double": .double(7.1),
        "negativeZero": .double(-0.0),
        "tiny": .double(.leastNonzeroMagnitude),
        "string": "Zürich → 東京 🚴‍♀️ «ok»",
        "empty": "",
        "document": ["nested": ["deeper": .int32(3)], "list": [1, "two", 3.5]],
        "array": [.int32(1), .int64(2), .double(3.25), "four", [.bool(true)], ["k": .null]],
        "emptyArray": [],
        "emptyDocument": .document([:]),
        "binary": .binary(subtype: 0, [0, 1, 2, 255]),
        "uuid": .binary(subtype: 4, Array(repeating: 0xAB, count: 16)),
        "objectId": .objectId(oid),
        "true": true,
        "false": false,
        "date": .date(date),
        "beforeEpoch": .date(Date(timeIntervalSince1970: -86_400.5)),
        "null": .null,
        "int32": .int32(-2_147_483_648),
        "int64": .int64(9_223_372_036_854_775_807),
        "smallInt64": .int64(5),
    ]

    @Test func throughBytes() throws {
        let bytes = try Self.everyType.bsonBytes()
        #expect(try BSONDocument(bsonBytes: bytes) == Self.everyType)
    }

    @Test func throughBSONPointerCopyingAndStealing() throws {
        let copied = try Self.everyType.withBSONPointer { try BSONDocument(copying: $0) }
        #expect(copied == Self.everyType)
        let stolen = try BSONDocument(stealing: Self.everyType.makeBSONPointer())
        #expect(stolen == Self.everyType)
        #expect(Array(stolen.keys) == Array(Self.everyType.keys))  // order kept
    }

    @Test func int32AndInt64StayDistinct() throws {
        let document: BSONDocument = ["a": .int32(5), "b": .int64(5), "c": 5]
        let back = try BSONDocument(bsonBytes: document.bsonBytes())
        #expect(back["a"] == .int32(5))
        #expect(back["b"] == .int64(5))
        #expect(back["c"] == .int64(5))
        #expect(back["a"] != back["b"])
    }

    @Test func doublesAreExact() throws {
        let values: [Double] = [7.1, 0.1, 1.0 / 3.0, 52.520008, 13.404954, -1e308, .greatestFiniteMagnitude, .infinity]
        let document = BSONDocument(values.enumerated().map { (String($0), BSONValue.double($1)) })
        let back = try BSONDocument(bsonBytes: document.bsonBytes())
        for (i, value) in values.enumerated() {
            #expect(back.double(String(i))?.bitPattern == value.bitPattern)
        }
        let nan = try BSONDocument(bsonBytes: (["n": .double(.nan)] as BSONDocument).bsonBytes())
        #expect(nan.double("n")?.isNaN == true)
    }

    @Test func datesKeepMilliseconds() throws {
        let back = try BSONDocument(bsonBytes: Self.everyType.bsonBytes())
        #expect(back.date("date") == Self.date)
        #expect(back.date("date").map { BSONDate.milliseconds($0) } == 1_763_769_119_123)
        // Finer than a millisecond is rounded to the nearest millisecond.
        let fine: BSONDocument = ["d": .date(Date(timeIntervalSince1970: 1.0006))]
        let fineBack = try BSONDocument(bsonBytes: fine.bsonBytes())
        #expect(fineBack.date("d").map { BSONDate.milliseconds($0) } == 1001)
    }

    /// libbson reads our bytes the same way: its canonical Extended JSON names every type and value.
    @Test func libbsonReadsWhatWeWrite() throws {
        let json = try Self.everyType.withBSONPointer { bson -> String in
            #expect(bson_validate(bson, BSON_VALIDATE_UTF8, nil))
            let text = bson_as_canonical_extended_json(bson, nil)!
            defer { bson_free(text) }
            return String(cString: text)
        }
        #expect(json.contains(#""double" : { "$numberDouble" : "7.0999999999999996447" }"#))
        #expect(json.contains(#""int32" : { "$numberInt" : "-2147483648" }"#))
        #expect(json.contains(#""int64" : { "$numberLong" : "9223372036854775807" }"#))
        #expect(json.contains(#""date" : { "$date" : { "$numberLong" : "1763769119123" } }"#))
        #expect(json.contains(#""objectId" : { "$oid" : "65f1a2b3c4d5e6f708192a3b" }"#))
        #expect(json.contains(#""uuid" : { "$binary" : { "base64" : "q6urq6urq6urq6urq6urqw==", "subType" : "04" } }"#))
        #expect(json.contains(#""string" : "Zürich → 東京 🚴‍♀️ «ok»""#))
        #expect(json.contains(#""array" : [ { "$numberInt" : "1" }, { "$numberLong" : "2" }"#))
    }

    /// And we read what libbson writes, including types we keep only as raw bytes, which write back
    /// unchanged.
    @Test func weReadWhatLibbsonWrites() throws {
        let json = """
            {"d": {"$numberDouble": "7.1"}, "i": {"$numberInt": "42"}, "l": {"$numberLong": "-7"},
             "s": "naïve", "t": {"$date": {"$numberLong": "1700000000123"}}, "a": [1, {"x": null}],
             "dec": {"$numberDecimal": "1.50"}, "ts": {"$timestamp": {"t": 1, "i": 2}},
             "re": {"$regularExpression": {"pattern": "^a", "options": "i"}}, "min": {"$minKey": 1}}
            """
        var error = bson_error_t()
        let bson = try #require(bson_new_from_json(json, -1, &error))
        let originalBytes = Array(
            UnsafeBufferPointer(
                start: bson_get_data(bson),
                count: Int(
                    bson_get_data(bson)!
                        .withMemoryRebound(to: Int32.self, capacity: 1) { $0.pointee })))
        let document = try BSONDocument(stealing: bson)
        #expect(document.double("d") == 7.1)
        #expect(document["i"] == .int32(42))
        #expect(document["l"] == .int64(-7))
        #expect(document.string("s") == "naïve")
        #expect(document.date("t") == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(document.array("a") == [.int32(1), ["x": .null]])
        if case .raw(let type, let bytes) = document["dec"] {
            #expect(type == 0x13 && bytes.count == 16)
        } else {
            Issue.record("decimal128 should be kept raw")
        }
        #expect(try document.bsonBytes() == originalBytes)
    }

    @Test func typedGetters() {
        let document: BSONDocument = [
            "i32": .int32(3), "i64": 4, "whole": 5.0, "half": 5.5, "s": "x", "ok": true,
            "id": .objectId(Self.oid), "bin": .binary(subtype: 0, [9]),
        ]
        #expect(document.int("i32") == 3 && document.int("i64") == 4 && document.int("whole") == 5)
        #expect(document.int("half") == nil && document.int("s") == nil && document.int("missing") == nil)
        #expect(document.double("i32") == 3 && document.double("half") == 5.5)
        #expect(document.string("s") == "x" && document.bool("ok") == true && document.objectId("id") == Self.oid)
        #expect(document.binary("bin") == [9])
    }

    @Test func orderedKeysAndMutation() {
        var document: BSONDocument = ["b": 1, "a": 2, "c": 3]
        #expect(document.keys == ["b", "a", "c"])
        document["a"] = "two"
        document["d"] = 4
        document["b"] = nil
        #expect(document.keys == ["a", "c", "d"])
        #expect(document["a"] == "two")
        #expect(document.map(\.key) == ["a", "c", "d"])
        #expect((["x": 1, "y": 2] as BSONDocument) != (["y": 2, "x": 1] as BSONDocument))
    }

    @Test func objectIDs() {
        let a = BSONObjectID()
        let b = BSONObjectID()
        #expect(a != b && a.hex.count == 24)
        #expect(BSONObjectID(hex: a.hex) == a)
        #expect(BSONObjectID(hex: "65F1A2B3C4D5E6F708192A3B") == Self.oid)
        #expect(BSONObjectID(hex: "65f1a2b3c4d5e6f708192a3") == nil)
        #expect(BSONObjectID(hex: "65f1a2b3c4d5e6f708192a3g") == nil)
        #expect(BSONObjectID(hex: "") == nil)
    }

    @Test func refusesWhatCannotBeEncodedOrDecoded() throws {
        #expect(throws: MongoError.self) { try (["a\u{0}b": 1] as BSONDocument).bsonBytes() }
        var bytes = try Self.everyType.bsonBytes()
        #expect(throws: MongoError.self) { try BSONDocument(bsonBytes: Array(bytes.dropLast(3))) }
        bytes[4] = 0x42  // an unknown type byte
        #expect(throws: MongoError.self) { try BSONDocument(bsonBytes: bytes) }
        #expect(throws: MongoError.self) { try BSONDocument(bsonBytes: [5, 0, 0]) }
    }

    @Test func bigArraysRoundTrip() throws {
        let values = (0..<1500).map { BSONValue.double(Double($0) * 0.001 + 52.5) }
        let document: BSONDocument = ["lat": .array(values)]
        let back = try BSONDocument(bsonBytes: document.bsonBytes())
        #expect(back == document)
    }
}
