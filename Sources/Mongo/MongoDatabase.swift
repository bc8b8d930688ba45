import CLibMongoC

/// A database on a `MongoClient`. Cheap to copy; holds no libmongoc handle of its own.
public struct MongoDatabase: Sendable {
    /// The pool every operation runs on.
    public let client: MongoClient
    /// The database name.
    public let name: String

    public init(client: MongoClient, name: String) {
        self.client = client
        self.name = name
    }

    /// The collection `name` in this database.
    public func collection(_ name: String) -> MongoCollection {
        MongoCollection(database: self, name: name)
    }

    /// Round-trips a `ping` to the server: the readiness check.
    /// - Throws: `MongoError.unavailable` when no server answers within the selection timeout.
    public func ping() async throws {
        _ = try await runCommand(["ping": 1])
    }

    /// Runs a database command and returns the server's reply. Generic commands are never retried by
    /// libmongoc, and add no write concern: prefer the collection methods for writes.
    public func runCommand(_ command: BSONDocument) async throws -> BSONDocument {
        let name = self.name
        return try await client.withClient { client in
            let reply = ReplyBuffer()
            var error = bson_error_t()
            let ok = try command.withBSONPointer {
                mongoc_client_command_simple(client, name, $0, nil, reply.pointer, &error)
            }
            guard ok else { throw MongoError(error, reply: reply.failureDetail) }
            return try reply.document()
        }
    }

    /// Drops the whole database (with the client's majority, journaled write concern).
    public func drop() async throws {
        let name = self.name
        try await client.withClient { client in
            let database = mongoc_client_get_database(client, name)!
            defer { mongoc_database_destroy(database) }
            var error = bson_error_t()
            guard mongoc_database_drop_with_opts(database, nil, &error) else { throw MongoError(error) }
        }
    }

    /// The names of the collections in this database.
    public func collectionNames() async throws -> [String] {
        let name = self.name
        return try await client.withClient { client in
            let database = mongoc_client_get_database(client, name)!
            defer { mongoc_database_destroy(database) }
            var error = bson_error_t()
            guard let names = mongoc_database_get_collection_names_with_opts(database, nil, &error) else {
                throw MongoError(error)
            }
            defer { bson_strfreev(names) }
            var result: [String] = []
            var i = 0
            while let name = names[i] {
                result.append(String(cString: name))
                i += 1
            }
            return result
        }
    }
}
