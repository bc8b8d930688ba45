import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// The media type of the body, lower-cased and without parameters (`application/json`).
    var mediaType: String? {
        guard let value = headers[.contentType] else { return nil }
        // Bytes: HTTP's optional white space is spaces and tabs, and a media type is ASCII
        // (Foundation's trimming and `lowercased()` were 2 % of a live append).
        var type = value.utf8.prefix { $0 != UInt8(ascii: ";") }
        while let first = type.first, first == 32 || first == 9 { type = type.dropFirst() }
        while let last = type.last, last == 32 || last == 9 { type = type.dropLast() }
        return String(decoding: type.map { (65...90).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Requires one of `accepted` media types, else `415`.
    func requireMediaType(_ accepted: Set<String>) throws -> String {
        guard let type = mediaType, accepted.contains(type) else {
            let list = accepted.sorted().joined(separator: ", ")
            let given = mediaType.map { "'\($0)'" } ?? "no Content-Type"
            throw APIError.unsupportedMediaType("this endpoint takes \(list), not \(given)")
        }
        return type
    }

    /// Reads the whole body, refusing (`413`) anything over `limit` bytes without reading it all:
    /// a declared `Content-Length` is checked first, and reading stops at the limit.
    func collectBody(limit: Int = Limits.maxBodyBytes) async throws -> ByteBuffer {
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.payloadTooLarge()
        }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge()
        } catch is NIOTooManyBytesError {
            // A chunked body (no `Content-Length`) that passes the limit while it is read.
            throw APIError.payloadTooLarge()
        }
    }

    /// Decodes a JSON body whose fields are all optional: an empty body (with no `Content-Type`, or
    /// with JSON's) stands for `{}`.
    func decodeOptionalJSON<Body: Decodable>(_ type: Body.Type) async throws -> Body {
        if mediaType == nil || mediaType == "application/json" {
            let buffer = try await collectBody()
            if buffer.readableBytes == 0 { return try JSONDecoder.api.decode(Body.self, from: Data("{}".utf8)) }
            _ = try requireMediaType(["application/json"])
            return try JSONDecoder.api.decodeBody(Body.self, from: Data(buffer.readableBytesView))
        }
        return try await decodeJSON(type)
    }

    /// Decodes a JSON body (`Content-Type: application/json`, at most 16 MiB). An empty body,
    /// anything but RFC 8259 JSON or a field of the wrong type is a `400` that says what is wrong.
    func decodeJSON<Body: Decodable>(_ type: Body.Type) async throws -> Body {
        _ = try requireMediaType(["application/json"])
        let buffer = try await collectBody()
        guard buffer.readableBytes > 0 else { throw APIError.invalid("the body is empty; a JSON object is required") }
        return try JSONDecoder.api.decodeBody(Body.self, from: Data(buffer.readableBytesView))
    }
}
