import Foundation
import Hummingbird
import RouteRankerCore
import RouteRankerModels

/// The upload formats, by request `Content-Type`.
enum UploadFormat: String, CaseIterable {
    case json = "application/json"
    case ndjson = "application/x-ndjson"
    case text = "text/plain"
    case gpx = "application/gpx+xml"
    case fit = "application/vnd.ant.fit"
    case tcx = "application/vnd.garmin.tcx+xml"

    /// The stream format of NDJSON and text bodies, which are consumed as they arrive, in arrival
    /// order; JSON and GPX are whole documents (at most 16 MiB, sorted by `t`).
    var streamFormat: PointStreamReader.Format? {
        switch self {
        case .ndjson: .ndjson
        case .text: .text
        case .json, .gpx, .fit, .tcx: nil
        }
    }

    /// The request's format if it is one of `allowed`, else `415`.
    static func of(_ request: Request, allowed: [UploadFormat]) throws -> UploadFormat {
        let type = try request.requireMediaType(Set(allowed.map(\.rawValue)))
        guard let format = UploadFormat(rawValue: type) else {
            throw APIError.unsupportedMediaType("this endpoint does not take '\(type)'")
        }
        return format
    }
}

/// What a whole-document body holds, with the query's `name` and `activity` already weighed
/// against the body's as each format's rules say.
struct RouteDocumentBody {
    /// The route name; `nil` for the default (`"Untitled"`).
    var name: String?
    /// The activity as given (checked by `RouteRules.activity`); `nil` for the default.
    var activity: String?
    var recording: Bool?
    var points: [TrackPoint]
    var annotations: [Annotation]
}

extension Request {
    /// Reads a JSON, GPX, FIT or TCX body whole (at most 16 MiB); its points come back sorted by
    /// `t`, stably. `bodyHash`, when given, takes in the body (for `Idempotency-Key`).
    ///
    /// Names: JSON's `name`; GPX's own name, else `?name=`; FIT's and TCX's `?name=`, else the
    /// file's (TCX `Notes`, else `"<sport> <date>"`). Activities: JSON's, else `?activity=`; GPX
    /// `?activity=`; FIT and TCX `?activity=`, else the file's sport. A name taken from the file
    /// is `TextRules.cleaned` (a control character must not fail the upload); one sent in the
    /// query or the JSON is checked by `RouteRules.name` (`400`).
    func readRouteDocument(_ format: UploadFormat, bodyHash: inout BodyHash?) async throws -> RouteDocumentBody {
        let buffer = try await collectBody()
        bodyHash?.update(buffer)
        guard buffer.readableBytes > 0 else { throw APIError.invalid("the body is empty") }
        // Copied once, in the form its reader takes.
        func data() -> Data { Data(buffer.readableBytesView) }
        let query = self.query
        // Reading megabytes of GPX, FIT, TCX or JSON takes up to seconds of CPU: on the costly
        // threads, not the database pool's that every cheap request needs (issue 43 #6).
        return try await withTaskExecutorPreference(CostlyThreads.requests) {
            try Self.parse(format, data: data, buffer: buffer, query: query)
        }
    }

    /// The document in `buffer`, read as `format` (see `readRouteDocument`).
    private static func parse(
        _ format: UploadFormat, data: () -> Data, buffer: ByteBuffer, query: QueryString
    ) throws -> RouteDocumentBody {
        switch format {
        case .gpx:
            let gpx = try GPXReader.read(data())
            return RouteDocumentBody(
                name: TextRules.cleaned(gpx.name) ?? query["name"], activity: query["activity"], recording: nil,
                points: TrackPoint.sortedByTime(gpx.points), annotations: gpx.annotations)
        case .fit:
            let partial = try RouteRules.flag(query["partial"], field: "partial") ?? false
            let fit = try FITReader.read(data(), partial: partial)
            return RouteDocumentBody(
                name: query["name"] ?? TextRules.cleaned(fit.defaultName),
                activity: query["activity"] ?? fit.activity.rawValue,
                recording: nil, points: TrackPoint.sortedByTime(fit.points), annotations: [])
        case .tcx:
            let tcx = try TCXReader.read(data())
            return RouteDocumentBody(
                name: query["name"] ?? TextRules.cleaned(tcx.defaultName),
                activity: query["activity"] ?? tcx.activity.rawValue,
                recording: nil, points: TrackPoint.sortedByTime(tcx.points), annotations: [])
        case .json, .ndjson, .text:
            // The scanner reads the plain shape of a body fast; the decoder reads the rest, errors included.
            let bytes = [UInt8](buffer.readableBytesView)
            try StrictJSON.validate(bytes)
            let body =
                try RouteJSONBody.scanned(bytes) ?? JSONDecoder.api.decodeBody(RouteJSONBody.self, from: Data(bytes))
            return RouteDocumentBody(
                name: body.name, activity: body.activity ?? query["activity"], recording: body.recording,
                points: body.sortedPoints, annotations: body.annotations?.annotations ?? [])
        }
    }

    /// Reads an NDJSON or text body chunk by chunk, handing each chunk's points to `sink` as soon as
    /// they are parsed: memory holds one chunk, however long the stream.
    func streamPoints(
        _ format: PointStreamReader.Format, bodyHash: inout BodyHash?, _ sink: ([TrackPoint]) async throws -> Void
    ) async throws {
        var reader = PointStreamReader(format)
        for try await chunk in body {
            bodyHash?.update(chunk)
            try await sink(try reader.feed(chunk.readableBytesView))
        }
        try await sink(try reader.finish())
    }
}
