/// What an import does with an archive entry, by its name: API.md's "Route files in an archive".
public enum ImportEntryKind: Sendable, Hashable {
    /// A route file, read as an upload in `format` would be (`gpx`, `fit` or `tcx`), after
    /// inflating it when `gzipped`.
    case route(RouteFile.Format, gzipped: Bool)
    /// Not a route file, or a name refused: reported as `skipped`.
    case skipped
}

/// The rules for the names of an archive's entries.
public enum ImportEntry {
    /// The kind of entry `name` (the archive's name for it, `/`-separated):
    ///
    /// - skipped when the name is refused (``isRefusedName(_:)``: empty, absolute, a `..`
    ///   component) or is a directory's (ends with `/`);
    /// - a route file when it ends, in any case, in `.gpx`, `.fit` or `.tcx`, each optionally
    ///   followed by `.gz` (then `gzipped`): `activities/1.GPX.GZ` is a gzipped GPX file;
    /// - skipped otherwise (`x.gpx.gz.txt`, `activities.csv`, `media/1.jpg`, …).
    ///
    /// The format comes from the name only, as an upload's comes from its `Content-Type`. Names
    /// are looked at byte by byte (UTF-8), not by characters, so that no combining or prepended
    /// character can hide a separator or an extension.
    public static func kind(ofName name: String) -> ImportEntryKind {
        guard !isRefusedName(name), name.utf8.last != slash else { return .skipped }
        var lower = name.utf8.map(asciiLowercased)[...]
        let gzipped = lower.hasSuffix(".gz")
        if gzipped { lower = lower.dropLast(3) }
        for format in [RouteFile.Format.gpx, .fit, .tcx] where lower.hasSuffix(".\(format.rawValue)") {
            return .route(format, gzipped: gzipped)
        }
        return .skipped
    }

    /// Whether an entry name is refused whatever it ends in: empty; absolute (starting with `/`
    /// or `\`, or a drive such as `C:`); or with a `..` component between `/` or `\`
    /// separators (`a/../b.gpx`, `..\b.gpx`).
    public static func isRefusedName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, first != slash, first != backslash else { return true }
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), (0x41...0x5A).contains(asciiUppercased(first)) {
            return true
        }
        return bytes.split(omittingEmptySubsequences: false) { $0 == slash || $0 == backslash }
            .contains { $0.elementsEqual("..".utf8) }
    }

    /// Whether entry `name` is Strava's `activities.csv` at the archive's root: exactly that
    /// name in any case of its ASCII letters (`Activities.CSV`), after
    /// ``StravaActivities/normalizedPath(_:)`` (`./activities.csv` is it), in no folder
    /// (`export/activities.csv` is not it).
    public static func isStravaActivitiesCSV(_ name: String) -> Bool {
        StravaActivities.normalizedPath(name).utf8.map(asciiLowercased).elementsEqual("activities.csv".utf8)
    }

    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func asciiUppercased(_ byte: UInt8) -> UInt8 {
        (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
    }
}

extension ArraySlice<UInt8> {
    /// Whether these bytes end with `ending`'s UTF-8.
    fileprivate func hasSuffix(_ ending: String) -> Bool {
        count >= ending.utf8.count && suffix(ending.utf8.count).elementsEqual(ending.utf8)
    }
}
