import Foundation

extension XMLSafety {
    /// `data` made readable when white space comes before its XML declaration, as in Strava's
    /// TCX exports (`          <?xml version="1.0"…`): XML allows nothing before the
    /// declaration, and libxml2 stops there. When the document starts with white space or byte
    /// order marks (other than one mark alone), the marks and an `<?xml …?>` declaration right
    /// after them are overwritten with spaces, line breaks kept: the document then reads as
    /// UTF-8 (the only encoding ``refuseUnsafe(_:format:)`` lets through), and errors keep their
    /// line numbers. Any other `data` comes back as it is, uncopied.
    static func blankingMisplacedDeclaration(_ data: Data) -> Data {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var index = data.startIndex
        var marks: [Data.Index] = []
        while index < data.endIndex {
            if blanks.contains(data[index]) {
                index += 1
            } else if data[index...].starts(with: bom) {
                marks.append(index)
                index += 3
            } else {
                break
            }
        }
        // Nothing before the first markup, or one byte order mark alone: libxml2 reads it.
        guard index != data.startIndex, index != data.startIndex + 3 || marks != [data.startIndex] else {
            return data
        }
        var declaration: Range<Data.Index>?
        let head = data[index...]
        if head.starts(with: Array("<?xml".utf8)), head.dropFirst(5).first.map(blanks.contains) == true,
            let close = head.firstIndex(of: UInt8(ascii: ">")), data[close - 1] == UInt8(ascii: "?")
        {
            declaration = index..<close + 1
        }
        guard !marks.isEmpty || declaration != nil else { return data }
        var result = data
        for mark in marks { result[mark..<mark + 3] = Data([0x20, 0x20, 0x20]) }
        for position in declaration ?? index..<index where result[position] != 0x0A && result[position] != 0x0D {
            result[position] = 0x20
        }
        return result
    }
}
