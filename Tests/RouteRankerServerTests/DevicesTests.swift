import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Mongo
import NIOCore
import RouteRankerServer
import Synchronization
import TestSupport
import Testing

/// `POST/GET/PATCH/DELETE /v1/devices` and key rotation.
@Suite struct DevicesTests {
    @Test func aNewDeviceShowsItsKeyOnceAndTheAddressesToPaste() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada", #""name":"Pixel","activity":"ride""#)
            #expect(device.key.utf8.count >= 22)  // ≥ 128 bits in base64url
            #expect(device.json["activity"] as? String == "ride")
            #expect(device.json["split_after_s"] as? Int == 600)
            #expect(device.json["share_with"] as? [String] == [])
            #expect(device.json["current_route"] is NSNull)
            #expect(device.json["last_seen_at"] is NSNull)
            #expect(
                device.json["counts"] as? [String: Int] == [
                    "received": 0, "recorded": 0, "duplicates": 0, "dropped": 0, "ignored": 0,
                ])
            let ingest = try #require(device.json["ingest"] as? [String: String])
            #expect(ingest["owntracks"] == "http://localhost/v1/track/owntracks")
            #expect(ingest["osmand"] == "http://localhost/v1/track/osmand")
            #expect(
                ingest["gpslogger"]
                    == "http://localhost/v1/track/osmand?id=\(device.key)&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP"
                    + "&altitude=%ALT&accuracy=%ACC")
            let read = try await client.send(.get, "/v1/devices/\(device.id)", token: token)
            #expect(read.status == .ok)
            #expect(read.json["key"] == nil && read.json["ingest"] == nil)
            #expect(!read.text.contains(device.key))
            let list = try await client.send(.get, "/v1/devices", token: token)
            #expect(list.json["total"] as? Int == 1)
            #expect(((list.json["items"] as? [JSONObject])?.first)?["id"] as? String == device.id)
        }
    }

    @Test func aConfiguredPublicURLMakesTheAddresses() async throws {
        try await withApp(configure: { $0.publicURL = "https://rr.example.org/" }) { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            let ingest = try #require(device.json["ingest"] as? [String: String])
            #expect(ingest["owntracks"] == "https://rr.example.org/v1/track/owntracks")
            let rotated = try await client.send(.post, "/v1/devices/\(device.id)/key", token: token)
            #expect(
                (rotated.json["ingest"] as? [String: String])?["osmand"] == "https://rr.example.org/v1/track/osmand")
        }
    }

    @Test func settingsAreCheckedAsTheContractSays() async throws {
        try await withApp { client in
            let token = try await client.register("ada", friends: ["bob", "ghost"])
            _ = try await client.register("bob")
            _ = try await client.register("eve")
            for (members, status) in [
                (#""name":"P","split_after_s":9"#, HTTPResponse.Status.badRequest),
                (#""name":"P","split_after_s":86401"#, .badRequest),
                (#""name":"P","split_after_s":60.5"#, .badRequest),
                (#""name":"P","activity":"WALK""#, .badRequest),
                (#""name":"""#, .badRequest),
                (#""name":"P","share_with":["ghost"]"#, .notFound),
                (#""name":"P","share_with":["eve"]"#, .forbidden),
                (#""name":"P","share_with":["bad id!"]"#, .badRequest),
                (#""name":"P","split_after_s":10,"share_with":["bob","bob"]"#, .created),
                (#""name":"P","split_after_s":86400"#, .created),
            ] {
                let response = try await client.send(.post, "/v1/devices", token: token, json: "{\(members)}")
                #expect(response.status == status, "\(members): \(response.text)")
                if status == .created {
                    #expect(response.json["share_with"] as? [String] ?? ["bob"] != ["bob", "bob"])
                }
            }
            #expect(try await client.send(.post, "/v1/devices", json: #"{"name":"P"}"#).status == .unauthorized)
        }
    }

    @Test func onlyTheOwnerSeesOrChangesADevice() async throws {
        try await withApp { client in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(ada, owner: "ada")
            for (method, path) in [
                (HTTPRequest.Method.get, ""), (.patch, ""), (.delete, ""), (.post, "/key"),
            ] {
                let response = try await client.send(
                    method, "/v1/devices/\(device.id)\(path)", token: bob, json: method == .patch ? "{}" : nil)
                #expect(response.status == .notFound, "\(method) \(path)")
            }
            #expect(try await client.send(.get, "/v1/devices/nope", token: ada).status == .notFound)
            let patched = try await client.send(
                .patch, "/v1/devices/\(device.id)", token: ada,
                json: #"{"name":"Bike","activity":"ride","split_after_s":30,"share_with":["bob"]}"#)
            #expect(patched.status == .ok)
            #expect(patched.json["name"] as? String == "Bike")
            #expect(patched.json["activity"] as? String == "ride")
            #expect(patched.json["split_after_s"] as? Int == 30)
            #expect(patched.json["share_with"] as? [String] == ["bob"])
            #expect(try await client.device(ada, device.id)["name"] as? String == "Bike")
        }
    }

    @Test func rotationAndDeletionStopTheOldKeyAtOnce() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            var device = try await client.createDevice(token, owner: "ada")
            #expect(try await client.ownTracks(device, "").status == .ok)
            let rotated = try await client.send(.post, "/v1/devices/\(device.id)/key", token: token)
            #expect(rotated.status == .ok)
            let newKey = try #require(rotated.json["key"] as? String)
            #expect(newKey != device.key)
            #expect(try await client.ownTracks(device, "").status == .unauthorized)
            device.key = newKey
            #expect(try await client.ownTracks(device, "").status == .ok)
            #expect(try await client.counts(token, device.id)["received"] == 2)

            #expect(try await client.send(.delete, "/v1/devices/\(device.id)", token: token).status == .noContent)
            #expect(try await client.ownTracks(device, "").status == .unauthorized)
            #expect(
                try await client.send(.get, "/v1/track/osmand?id=\(device.key)&lat=1&lon=2&timestamp=1764000000")
                    .status == .unauthorized)
            #expect(try await client.send(.get, "/v1/devices/\(device.id)", token: token).status == .notFound)
            #expect(try await client.send(.get, "/v1/devices", token: token).json["total"] as? Int == 0)
        }
    }

    /// A key names its device, but only the whole key's digest opens it: another device's secret
    /// behind this device's id, or a key naming no device, is the same `401`; a key from before
    /// keys named their device is still found by its digest.
    @Test func aKeyNamesItsDeviceAndOnlyTheWholeKeyOpensIt() async throws {
        try await withAppAndDatabase { client, database in
            let token = try await client.register("ada")
            let first = try await client.createDevice(token, owner: "ada")
            let second = try await client.createDevice(token, owner: "ada")
            #expect(first.key.hasPrefix(first.id + "~"))
            let secondSecret = try #require(second.key.split(separator: "~").last)
            for forged in [
                "\(first.id)~\(secondSecret)", "\(first.id)~", "0123456789abcdef01234567~\(secondSecret)", "~x",
            ] {
                var device = first
                device.key = forged
                #expect(try await client.ownTracks(device, "").status == .unauthorized, "\(forged)")
            }
            // A key of the old form (no id), stored as its digest.
            let legacy = "an-old-key-of-forty-three-characters-AAAAAAA"
            let digest = Data(SHA256.hash(data: Data(legacy.utf8)))
            _ = try await database.collection("devices").updateOne(
                filter: ["_id": .string(first.id)], update: ["$set": ["key_hash": .binary(subtype: 0, Array(digest))]])
            var old = first
            old.key = legacy
            #expect(try await client.ownTracks(old, "").status == .ok)
            #expect(try await client.ownTracks(first, "").status == .unauthorized)
        }
    }

    @Test func theKeyIsStoredOnlyAsItsHash() async throws {
        let database = TestEnvironment.uniqueDatabaseName("devices")
        let key = Mutex<String>("")
        try await withApp(configure: { $0.database = database }) { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            key.withLock { $0 = device.key }
        }
        let dump = try await SecretsAtRestTests.dump(database)
        let secret = key.withLock { $0 }
        #expect(dump.contains("== devices"))
        #expect(!dump.contains(secret))
        // The key names its device (`<id>~<secret>`); the secret part is what must not be stored.
        let secretPart = String(secret.split(separator: "~").last ?? "")
        let raw = try #require(SecretsAtRestTests.decoded(secretPart))
        for encoding in SecretsAtRestTests.encodings(raw) { #expect(!dump.contains(encoding)) }
    }
}
