import Foundation
import Testing

@testable import RouteRankerCore

/// RFC 4180 reading: quoting, line breaks, the byte order mark, ragged rows, repeated header
/// names, and the errors.
@Suite struct CSVTableTests {
    static func table(_ text: String) throws -> CSVTable {
        try CSVTable(parsing: Data(text.utf8))
    }

    @Test func plainFieldsWithLFAndCRLF() throws {
        for text in ["a,b,c\n1,2,3\n4,5,6\n", "a,b,c\r\n1,2,3\r\n4,5,6\r\n", "a,b,c\r1,2,3\r4,5,6"] {
            let table = try Self.table(text)
            #expect(table.header == ["a", "b", "c"])
            #expect(table.rows == [["1", "2", "3"], ["4", "5", "6"]])
        }
    }

    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
        let text = "name,note\r\n\"Run, easy\",\"say \"\"hi\"\"\"\r\n\"two\r\nlines\",\"one\nmore\"\n\"\",x\n"
        let table = try Self.table(text)
        #expect(table.header == ["name", "note"])
        #expect(table.rows == [["Run, easy", "say \"hi\""], ["two\r\nlines", "one\nmore"], ["", "x"]])
    }

    @Test func emptyFieldsAndEmptyLines() throws {
        let table = try Self.table("a,b,c\n,,\n\n1,,3\n\r\n\n")
        #expect(table.rows == [["", "", ""], ["1", "", "3"]])
        #expect(try Self.table("a,b").rows.isEmpty)
        #expect(try Self.table("a,b\n1,2").rows == [["1", "2"]])
        #expect(try Self.table("a\n\"\"\n").rows == [[""]])
    }

    @Test func aByteOrderMarkIsIgnored() throws {
        let table = try CSVTable(parsing: [0xEF, 0xBB, 0xBF] + Array("Filename,x\n1,2\n".utf8))
        #expect(table.header == ["Filename", "x"])
        #expect(table.column(named: "Filename") == 0)
        // Only at the very start: elsewhere it is part of a field.
        #expect(try Self.table("a\n\u{FEFF}b\n").rows == [["\u{FEFF}b"]])
    }

    @Test func raggedRowsAreKeptAsWritten() throws {
        let table = try Self.table("a,b,c\n1\n1,2,3,4\n")
        #expect(table.rows == [["1"], ["1", "2", "3", "4"]])
        #expect(table.field(row: 0, column: 0) == "1")
        #expect(table.field(row: 0, column: 2) == nil)
        #expect(table.field(row: 1, column: 3) == "4")
    }

    @Test func theFirstOfARepeatedHeaderNameWins() throws {
        let table = try Self.table(
            "Activity ID,Distance,Elapsed Time,Distance,Elapsed Time\n1,5.01,1800,5012.3,1800.0\n")
        #expect(table.column(named: "Distance") == 1)
        #expect(table.column(named: "Elapsed Time") == 2)
        #expect(table.column(named: "Activity ID") == 0)
        #expect(table.column(named: "distance") == nil)
        #expect(table.column(named: "Distance ") == nil)
        #expect(table.field(row: 0, column: table.column(named: "Distance")!) == "5.01")
    }

    @Test func unicodeFields() throws {
        let table = try Self.table("name\n\"Morgenlauf 🏃‍♀️, Zürich\"\n")
        #expect(table.rows == [["Morgenlauf 🏃‍♀️, Zürich"]])
    }

    @Test(
        arguments: [
            ("a,b\n\"open,2\n", 2, "never closed"),
            ("a,b\n1,\"two\nlines\n", 2, "never closed"),
            ("a,b\n1,x\"y\n", 2, "a quote inside"),
            ("a,b\n1,2\n3,4\"\n", 3, "a quote inside"),
            ("a,b\n\"x\"y,2\n", 2, "closing quote"),
            ("a,b\n\"x\n\"y,2\n", 3, "closing quote"),
            ("", nil, "no header row"),
            ("\n\r\n", nil, "no header row"),
        ] as [(String, Int?, String)])
    func malformedInputIsRefused(text: String, line: Int?, message: String) throws {
        let error = try #require(throws: FormatError.self) { try Self.table(text) }
        #expect(error.field == "body")
        #expect(error.line == line)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func fieldsMustBeUTF8() throws {
        let error = try #require(throws: FormatError.self) {
            try CSVTable(parsing: Array("a\n".utf8) + [0xFF, 0x0A])
        }
        #expect(error.line == 2 && error.message.contains("UTF-8"))
    }

    @Test func theSizeIsCapped() throws {
        let data = Data("a,b\n1,2\n".utf8)
        #expect(try CSVTable(parsing: data, maxBytes: data.count).rows == [["1", "2"]])
        let error = try #require(throws: FormatError.self) { try CSVTable(parsing: data, maxBytes: data.count - 1) }
        #expect(error.message.contains("larger than"))
    }

    @Test func aDataSliceReadsAsItsBytes() throws {
        let data = Data("xxa,b\n1,2\n".utf8).dropFirst(2)
        #expect(try CSVTable(parsing: data).rows == [["1", "2"]])
    }
}
