import Foundation
import RouteRankerCore
import RouteRankerModels

extension JSONEncoder {
    /// The encoder for every API response: `snake_case` keys and RFC 3339 UTC timestamps with
    /// milliseconds (`2026-11-21T23:31:59.123Z`), as the contract fixes.
    static let api: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()
}

extension JSONDecoder {
    /// The decoder for request bodies. Field names are given explicitly by each request type.
    static let api = JSONDecoder()

    /// Decodes a request body that must be RFC 8259 JSON and nothing more: `StrictJSON` checks it
    /// first (Foundation's decoder also takes a trailing comma), then a decoding failure becomes a
    /// `400` naming the field.
    func decodeBody<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        try StrictJSON.validate(data)
        do {
            return try decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError(decoding: error)
        }
    }
}
