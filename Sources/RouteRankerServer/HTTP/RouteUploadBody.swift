import Foundation
import Hummingbird
import RouteRankerCore

/// The upload formats, by request `Content-Type`.
enum UploadFormat: String, CaseIterable {
    case json = "application/json"
    case ndjson = "application/x-ndjson"
    case text = "text/plain"
    case gpx = "application/gpx+xml"

    /// JSON and GPX are whole documents (at most 16 MiB, sorted by `t`); NDJSON and text are
    /// streams, consumed as they arrive, in arrival order.
    var isStream: Bool { self == .ndjson || self == .text }

    static func of(_ request: Request, allowed: [UploadFormat]) throws -> UploadFormat {
        let type = try request.requireMediaType(Set(allowed.map(\.rawValue)))
        return UploadFormat(rawValue: type)!
    }
}

/// A route-creating or appending JSON body: `{"name"?, "activity"?, "points"?, "annotations"?,
/// "recording"?}` (appends use `points` and `annotations` only).
struct RouteJSONBody: Decodable {
    var name: String?
    var activity: String?
    var points: ValidatedPoints?
    var annotations: ValidatedAnnotations?
    var recording: Bool?
}

/// What a whole-document body holds.
struct RouteDocumentBody {
    var name: String?
    var activity: String?
    var recording: Bool?
    var points: [TrackPoint]
    var annotations: [Annotation]
}

extension Request {
    /// Reads a JSON or GPX body whole (at most 16 MiB); its points come back sorted by `t`, stably.
    func readRouteDocument(_ format: UploadFormat, bodyHash: inout BodyHash) async throws -> RouteDocumentBody {
        let buffer = try await collectBody()
        bodyHash.update(buffer)
        guard buffer.readableBytes > 0 else { throw APIError.invalid("the body is empty") }
        let data = Data(buffer.readableBytesView)
        switch format {
        case .gpx:
            let gpx = try GPXReader.read(data)
            return RouteDocumentBody(
                name: gpx.name, activity: nil, recording: nil, points: TrackPoint.sortedByTime(gpx.points),
                annotations: gpx.annotations)
        default:
            let body: RouteJSONBody
            do {
                body = try JSONDecoder.api.decode(RouteJSONBody.self, from: data)
            } catch let error as DecodingError {
                throw APIError(decoding: error)
            }
            return RouteDocumentBody(
                name: body.name, activity: body.activity, recording: body.recording,
                points: TrackPoint.sortedByTime(body.points?.points ?? []),
                annotations: body.annotations?.annotations ?? [])
        }
    }

    /// Reads an NDJSON or text body chunk by chunk, handing each chunk's points to `sink` as soon as
    /// they are parsed: memory holds one chunk, however long the stream.
    func streamPoints(
        _ format: UploadFormat, bodyHash: inout BodyHash, _ sink: ([TrackPoint]) async throws -> Void
    ) async throws {
        var reader = StreamReader(format)
        for try await chunk in body {
            bodyHash.update(chunk)
            try await sink(try reader.feed(chunk.readableBytesView))
        }
        try await sink(try reader.finish())
    }
}

/// The streaming readers behind one interface.
private enum StreamReader {
    case ndjson(NDJSONPointReader)
    case text(PhoneTextReader)

    init(_ format: UploadFormat) {
        self = format == .ndjson ? .ndjson(NDJSONPointReader()) : .text(PhoneTextReader())
    }

    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [TrackPoint] {
        switch self {
        case .ndjson(var reader):
            defer { self = .ndjson(reader) }
            return try reader.feed(bytes)
        case .text(var reader):
            defer { self = .text(reader) }
            return try reader.feed(bytes)
        }
    }

    mutating func finish() throws -> [TrackPoint] {
        switch self {
        case .ndjson(var reader):
            defer { self = .ndjson(reader) }
            return try reader.finish()
        case .text(var reader):
            defer { self = .text(reader) }
            return try reader.finish()
        }
    }
}
