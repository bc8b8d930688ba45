import Foundation

/// What a FIT body holds for RouteRanker.
public struct FITActivity: Sendable, Hashable {
    /// Every `record` with a position, in file order across chained files (not sorted: use
    /// ``TrackPoint/sortedByTime(_:)`` before ingest).
    public var points: [TrackPoint]
    /// The first `session`'s `sport` (the FIT enum value), when there is one.
    public var sport: UInt8?
    /// How many FIT files the body chains (at least 1).
    public var fileCount: Int
    /// In partial mode, the defect that ended reading early (nil when the body was whole).
    public var defect: FormatError?

    /// API.md's activity for this file: from the first session's sport.
    public var activity: Activity { FITProfile.activity(sport: sport) }

    /// API.md's default route name: `"<sport> <YYYY-MM-DD>"` (FIT sport name, `activity` without
    /// a session) with the UTC date of the first point in time.
    public var defaultName: String {
        ImportNaming.name(sport: FITProfile.sportName(sport), firstTime: points.lazy.map(\.t).min())
    }
}

/// A valid FIT file that is not an activity (settings, a workout, a course, monitoring…):
/// API.md's `422`, distinct from a damaged file's ``FormatError``.
public struct FITFileTypeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `file_id.type` value.
    public var fileType: UInt8
    /// For people, naming the type.
    public var message: String

    public var description: String { message }
}

/// Reads FIT activity files (`application/vnd.ant.fit`) as watches and bike computers write them.
///
/// Decodes only `file_id.type`, `record` (timestamp, position, altitudes, GPS accuracy) and
/// `session.sport`; every other message, field and developer field is read past by its declared
/// size. Works in place on the body: beyond the points, memory is the definitions of 16 local
/// message types. Every size read from the file is checked against the bytes left before use, and
/// each step consumes at least one byte, so no input can crash it or make it loop.
public enum FITReader {
    /// Unix time of the FIT epoch, 1989-12-31T00:00:00Z.
    public static let epoch: Double = 631_065_600

    /// Reads `data`, a FIT file or several chained. A damaged body throws ``FormatError`` (`body`,
    /// with the byte `offset`), a bad point a ``FormatError`` with its index, a valid file that is
    /// not an activity ``FITFileTypeError``. With `partial`, CRC mismatches are ignored and
    /// reading stops at the first defect, keeping every complete message before it (the defect
    /// goes in ``FITActivity/defect``); a body that does not even start as FIT still throws.
    public static func read(_ data: Data, partial: Bool = false) throws -> FITActivity {
        try data.withUnsafeBytes { bytes in
            var parser = FITParser(bytes: bytes, partial: partial)
            try parser.run()
            if let type = parser.fileTypes.first(where: { $0 != FITProfile.activityFileType }) {
                throw FITFileTypeError(
                    fileType: type,
                    message: "the FIT file is a \(FITProfile.fileTypeName(type)) file, not an activity")
            }
            return FITActivity(
                points: parser.points, sport: parser.sport, fileCount: max(parser.fileCount, 1),
                defect: parser.defect)
        }
    }

    /// True when `data` starts like a FIT file: a 12 or 14 byte header with ".FIT" at bytes 8–11.
    public static func looksLikeFIT(_ data: Data) -> Bool {
        data.count >= 12 && [12, 14].contains(data[data.startIndex])
            && data[data.startIndex + 8..<data.startIndex + 12].elementsEqual(".FIT".utf8)
    }
}
