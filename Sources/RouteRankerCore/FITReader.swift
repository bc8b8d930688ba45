import Foundation

/// What a FIT body holds for RouteRanker.
public struct FITActivity: Sendable, Hashable {
    /// Every `record` with a position, in file order across chained files, whatever their type
    /// (not sorted: use ``TrackPoint/sortedByTime(_:)`` before ingest).
    public var points: [TrackPoint]
    /// The `sport` (the FIT enum value) of the first `session` of an activity file, when there is
    /// one (see ``FITReader/read(_:partial:)``).
    public var sport: UInt8?
    /// How many FIT files the body chains (at least 1).
    public var fileCount: Int
    /// In partial mode, the defect that ended reading early (nil when the body was whole).
    public var defect: FormatError?

    /// API.md's activity for this file: from the first activity file's session.
    public var activity: Activity { FITProfile.activity(sport: sport) }

    /// API.md's default route name: `"<sport> <YYYY-MM-DD>"` (FIT sport name, `activity` without
    /// a session) with the UTC date of the first point in time.
    public var defaultName: String {
        ImportNaming.name(sport: FITProfile.sportName(sport), firstTime: points.lazy.map(\.t).min())
    }
}

/// A valid FIT body none of whose files is an activity (settings, a workout, a course,
/// monitoring…): API.md's `422`, distinct from a damaged file's ``FormatError``.
public struct FITFileTypeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The first file's `file_id.type` value (of the first file that has one).
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
    /// with the byte `offset`), a bad point a ``FormatError`` with its index. With `partial`, CRC
    /// mismatches are ignored and reading stops at the first defect, keeping every complete
    /// message before it (the defect goes in ``FITActivity/defect``); a body that does not even
    /// start as FIT still throws.
    ///
    /// A chain is an activity when one of its files is (devices append settings or other files to
    /// an activity): the points come from every file, the sport from the first session of an
    /// activity file. A file's type is its first `file_id`'s. A body none of whose files is an
    /// activity throws ``FITFileTypeError``.
    public static func read(_ data: Data, partial: Bool = false) throws -> FITActivity {
        try data.withUnsafeBytes { bytes in
            var parser = FITParser(bytes: bytes, partial: partial)
            try parser.run()
            try requireActivity(parser.files)
            return FITActivity(
                points: parser.points, sport: sport(parser.files), fileCount: max(parser.files.count, 1),
                defect: parser.defect)
        }
    }

    /// Throws ``FITFileTypeError`` when files of the chain say what they are and none is an
    /// activity. Files without a `file_id` say nothing, so a body of them alone is read as an
    /// activity, as it always was.
    private static func requireActivity(_ files: [FITFileSummary]) throws {
        let types = files.compactMap(\.type)
        guard let first = types.first, !types.contains(FITProfile.activityFileType) else { return }
        let names = types.map(FITProfile.fileTypeName)
        throw FITFileTypeError(
            fileType: first,
            message: types.count == 1
                ? "the FIT file is a \(names[0]) file, not an activity"
                : "no file of the chained FIT body is an activity: \(names.joined(separator: ", "))")
    }

    /// The sport of the first session in a file that may be the activity: an activity file, or
    /// one without a type (a multisport watch's later files). A settings file or an activity
    /// summary chained before the activity does not name it.
    private static func sport(_ files: [FITFileSummary]) -> UInt8? {
        files.first { $0.hasSession && $0.mayBeActivity }?.sport
    }

    /// True when `data` starts like a FIT file: a 12 or 14 byte header with ".FIT" at bytes 8–11.
    public static func looksLikeFIT(_ data: Data) -> Bool {
        data.count >= 12 && [12, 14].contains(data[data.startIndex])
            && data[data.startIndex + 8..<data.startIndex + 12].elementsEqual(".FIT".utf8)
    }
}
