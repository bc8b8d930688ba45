import CLibMongoC

// Ownership of libbson's `bson_t` (opaque to Swift: Debian builds it 128-byte aligned, so it is only
// ever handled through pointers from bson_new/bson_new_from_data and freed with bson_destroy):
// - `withBSONPointer` lends a temporary bson_t that lives only for the closure;
// - `init(copying:)` reads a bson_t someone else owns and frees;
// - `init(stealing:)` reads a bson_t and frees it.

extension BSONDocument {
    /// Calls `body` with a freshly allocated `bson_t` holding this document, destroyed when `body`
    /// returns. The pointer is mutable so libmongoc helpers can append (e.g. a session id to options).
    func withBSONPointer<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let bson = try makeBSONPointer()
        defer { bson_destroy(bson) }
        return try body(bson)
    }

    /// A new heap `bson_t` holding this document; the caller owns it and must `bson_destroy` it.
    func makeBSONPointer() throws -> OpaquePointer {
        let bytes = try bsonBytes()
        guard let bson = bytes.withUnsafeBufferPointer({ bson_new_from_data($0.baseAddress, $0.count) }) else {
            throw MongoError.other(code: -1, domain: nil, message: "libbson rejected the encoded document")
        }
        return bson
    }

    /// Decodes a `bson_t` owned by someone else, which stays valid and untouched.
    init(copying bson: OpaquePointer) throws {
        guard let data = bson_get_data(bson) else { throw BSONReader.malformed("no data") }
        // A BSON document starts with its own int32 length, so the opaque struct need not be read.
        let length = Int(Int32(littleEndian: UnsafeRawPointer(data).loadUnaligned(as: Int32.self)))
        try self.init(bsonBytes: UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Decodes a `bson_t` and destroys it, whether or not decoding succeeds.
    init(stealing bson: OpaquePointer) throws {
        defer { bson_destroy(bson) }
        try self.init(copying: bson)
    }
}

/// Calls `body` with `bson_t` pointers for all `documents`, all destroyed afterwards: for libmongoc
/// calls that take an array of documents (insert_many).
func withBSONPointers<T>(_ documents: [BSONDocument], _ body: ([OpaquePointer?]) throws -> T) throws -> T {
    var pointers = [OpaquePointer?]()
    pointers.reserveCapacity(documents.count)
    defer { pointers.forEach { bson_destroy($0) } }
    for document in documents { pointers.append(try document.makeBSONPointer()) }
    return try body(pointers)
}

/// Storage for a libmongoc reply out-parameter (which libmongoc always initializes, even on error),
/// freed when this goes out of scope.
struct ReplyBuffer: ~Copyable {
    let pointer: OpaquePointer

    init() {
        guard let pointer = rr_bson_out_new() else { fatalError("out of memory allocating a bson_t") }
        self.pointer = pointer
    }

    /// The reply as a document. Throws when it cannot be read: a reply taken for empty would say
    /// "nothing went wrong, nothing was counted" of a command nobody knows the outcome of.
    func document() throws -> BSONDocument {
        do {
            return try BSONDocument(copying: pointer)
        } catch {
            throw MongoError.other(code: -1, domain: nil, message: "the database's reply could not be read: \(error)")
        }
    }

    /// The reply of a command that failed, if it can be read: it only adds detail (codes, labels)
    /// to an error that is thrown either way.
    var failureDetail: BSONDocument? { try? BSONDocument(copying: pointer) }

    deinit { rr_bson_out_free(pointer) }
}
