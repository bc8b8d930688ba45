import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Mongo
import TestSupport
import Testing

/// API.md: the server keeps only a SHA-256 of each token, and link secrets only as a hash. A dump of
/// every document of every collection must hold no raw secret in any encoding.
@Suite struct SecretsAtRestTests {
    /// Every document of every collection of `database`, rendered with strings as they are and
    /// binary values as hex, base64 and base64url.
    static func dump(_ database: String) async throws -> String {
        var logger = Logger(label: "secrets-at-rest")
        logger.logLevel = .warning
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: logger, defaultPoolSize: 2)
        defer { mongo.shutdown() }
        let db = MongoDatabase(client: mongo, name: database)
        var out = ""
        for name in try await db.collectionNames().sorted() {
            out += "== \(name)\n"
            for document in try await db.collection(name).find() { out += render(.document(document)) + "\n" }
        }
        return out
    }

    static func render(_ value: BSONValue) -> String {
        switch value {
        case .document(let d): "{" + zip(d.keys, d.values).map { "\($0): \(render($1))" }.joined(separator: ", ") + "}"
        case .array(let a): "[" + a.map(render).joined(separator: ", ") + "]"
        case .string(let s): "\"\(s)\""
        case .binary(_, let bytes): "Binary(\(encodings(bytes).joined(separator: " ")))"
        case .raw(_, let bytes): "Raw(\(encodings(bytes).joined(separator: " ")))"
        default: "\(value)"
        }
    }

    static func encodings(_ bytes: some Sequence<UInt8>) -> [String] {
        let data = Data(bytes)
        let base64 = data.base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return [data.map { String(format: "%02x", $0) }.joined(), base64, base64URL]
    }

    /// The bytes a base64url secret stands for.
    static func decoded(_ secret: String) -> Data? {
        var base64 = secret.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    @Test func aFullDumpHoldsNoRawTokenOrLinkSecretOnlyTheirHashes() async throws {
        let database = TestEnvironment.uniqueDatabaseName("secrets")
        let secrets = Secrets()
        try await withApp(database: database) { client in
            let olga = try await client.register("olga", friends: ["fran"])
            let fran = try await client.register("fran")
            let sam = try await client.register("sam")
            let rotated = try await client.send(.post, "/v1/users/me/token", token: sam)
            let samNow = try #require(rotated.json["token"] as? String)
            let route = try await client.newSharedRoute(olga)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let kept = try await client.newLink(olga, route)
            let other = try await client.newLink(olga, route, expiresIn: 60)
            let revoked = try await client.newLink(olga, route)
            #expect(
                try await client.send(.delete, "/v1/routes/\(route)/links/\(revoked.id)", token: olga).status
                    == .noContent)
            // Reads that might cache or log something.
            #expect(try await client.send(.get, "/v1/links/\(kept.secret)/points").status == .ok)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: fran).status == .ok)
            let keyed = try await client.send(
                .post, "/v1/routes", token: fran, json: #"{"name":"Keyed"}"#, headers: [.init("Idempotency-Key")!: "k1"]
            )
            #expect(keyed.status == .created)
            await secrets.record(
                live: [olga, fran, samNow, kept.secret, other.secret], retired: [sam, revoked.secret])
        }
        let dump = try await Self.dump(database)
        #expect(dump.contains("== users") && dump.contains("== links"))
        let (live, retired) = await (secrets.live, secrets.retired)
        #expect(live.count == 5 && retired.count == 2)
        for secret in live + retired {
            var forms = [secret] + Self.encodings(Array(secret.utf8))
            if let raw = Self.decoded(secret) { forms += Self.encodings(raw) }
            for form in forms { #expect(!dump.contains(form), "a raw secret is stored: \(form.prefix(12))…") }
        }
        for secret in live {
            let hash = Self.encodings(SHA256.hash(data: Data(secret.utf8)))[0]
            #expect(dump.contains(hash), "the SHA-256 of a live secret is not stored")
        }
        try await Self.drop(database)
    }

    static func drop(_ database: String) async throws {
        let mongo = try MongoClient(uri: TestEnvironment.mongoURI, logger: Logger(label: "drop"), defaultPoolSize: 1)
        defer { mongo.shutdown() }
        try await MongoDatabase(client: mongo, name: database).drop()
    }

    /// The secrets a test saw, handed out of the app's closure.
    actor Secrets {
        var live: [String] = []
        var retired: [String] = []
        func record(live: [String], retired: [String]) {
            self.live = live
            self.retired = retired
        }
    }
}
