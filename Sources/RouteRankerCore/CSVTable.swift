/// A CSV file with a header row, read as RFC 4180 says (Strava's `activities.csv`).
///
/// Fields are separated by commas and records by CRLF, LF or a lone CR. A field may be quoted:
/// then it may hold commas, line breaks and quotes (written `""`), kept as they are. A UTF-8
/// byte order mark at the start is ignored. Empty lines (no byte between two line breaks) are
/// skipped, so a file may end with a line break or several. Rows are kept as written: a row may
/// have fewer or more fields than the header (use ``field(row:column:)`` to read past its end).
/// Nothing is trimmed.
///
/// Refused with a ``FormatError`` (`field` `body`, with the 1-based `line`): a quoted field that
/// is never closed, a quote inside an unquoted field, anything but a comma or a line break after
/// a closing quote, a field that is not UTF-8, an input without a header row or longer than
/// `maxBytes`.
public struct CSVTable: Sendable, Hashable {
    /// The largest input accepted by default: 64 MiB (a Strava export of 10,000 activities has
    /// an `activities.csv` of about 10 MB).
    public static let defaultMaxBytes = 64 << 20

    /// The first record's fields, as written (names may repeat).
    public let header: [String]
    /// Every later record, in file order, each with as many fields as it has.
    public let rows: [[String]]

    /// Reads `data`; throws ``FormatError`` as described on the type.
    public init(parsing data: some Collection<UInt8>, maxBytes: Int = CSVTable.defaultMaxBytes) throws {
        guard data.count <= maxBytes else {
            throw FormatError.body("the CSV file is larger than \(maxBytes) bytes")
        }
        var records =
            try data.withContiguousStorageIfAvailable { try Self.records($0) }
            ?? Array(data).withUnsafeBufferPointer { try Self.records($0) }
        guard !records.isEmpty else { throw FormatError.body("the CSV file has no header row") }
        header = records.removeFirst()
        rows = records
    }

    /// The index of the first column whose header is exactly `name` (case and spaces count), or
    /// `nil`. Strava's `activities.csv` repeats several names (`Distance`, `Elapsed Time`,
    /// `Relative Effort`, …): the first is the one in the export's own units and the one found.
    public func column(named name: String) -> Int? {
        header.firstIndex(of: name)
    }

    /// Row `row`'s field in column `column`, or `nil` when that row is too short to have one.
    public func field(row: Int, column: Int) -> String? {
        rows[row].indices.contains(column) ? rows[row][column] : nil
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Every record of `bytes`, the header included.
    private static func records(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [[String]] {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []

        func finishField() throws {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw FormatError.body("CSV line \(line): a field is not UTF-8", line: line)
            }
            record.append(text)
            field.removeAll(keepingCapacity: true)
        }
        /// Steps over the line break at `index` (CRLF, LF or CR) and counts the line.
        func skipLineBreak() {
            if bytes[index] == cr, index + 1 < bytes.count, bytes[index + 1] == lf { index += 1 }
            index += 1
            line += 1
        }

        while index < bytes.count {
            // At the start of a record: an empty line is no record.
            if bytes[index] == lf || bytes[index] == cr {
                skipLineBreak()
                continue
            }
            // One record, field by field.
            while true {
                if index < bytes.count, bytes[index] == quote {
                    let opened = line
                    index += 1
                    while true {
                        guard index < bytes.count else {
                            throw FormatError.body(
                                "CSV line \(opened): a quoted field is never closed", line: opened)
                        }
                        let byte = bytes[index]
                        index += 1
                        if byte == quote {
                            guard index < bytes.count, bytes[index] == quote else { break }
                            field.append(quote)
                            index += 1
                        } else {
                            if byte == lf || (byte == cr && (index == bytes.count || bytes[index] != lf)) {
                                line += 1
                            }
                            field.append(byte)
                        }
                    }
                    if index < bytes.count, ![comma, lf, cr].contains(bytes[index]) {
                        throw FormatError.body(
                            "CSV line \(line): a closing quote must be followed by a comma or a line break",
                            line: line)
                    }
                } else {
                    while index < bytes.count, ![comma, lf, cr].contains(bytes[index]) {
                        guard bytes[index] != quote else {
                            throw FormatError.body(
                                "CSV line \(line): a quote inside a field that does not start with one",
                                line: line)
                        }
                        field.append(bytes[index])
                        index += 1
                    }
                }
                try finishField()
                guard index < bytes.count, bytes[index] == comma else { break }
                index += 1
            }
            records.append(record)
            record.removeAll()
            if index < bytes.count { skipLineBreak() }
        }
        return records
    }
}
