import Foundation
import Testing

@testable import RouteRankerCore

/// Which archive entries an import reads, by name, and Strava's TCX files with white space
/// before their XML declaration.
@Suite struct ImportEntryTests {
    @Test(arguments: [
        ("activities/1234567890.gpx", ImportEntryKind.route(.gpx, gzipped: false)),
        ("activities/1234567890.gpx.gz", .route(.gpx, gzipped: true)),
        ("ACTIVITIES/X.GPX.GZ", .route(.gpx, gzipped: true)),
        ("x.fit", .route(.fit, gzipped: false)),
        ("x.Fit.Gz", .route(.fit, gzipped: true)),
        ("a/b/c.tcx", .route(.tcx, gzipped: false)),
        ("c.TCX.gz", .route(.tcx, gzipped: true)),
        ("./activities/1.gpx", .route(.gpx, gzipped: false)),
        ("a..b.gpx", .route(.gpx, gzipped: false)),
        ("...gpx", .route(.gpx, gzipped: false)),
        // Bytes, not characters: U+0600 would join the dot into one character with it.
        ("x\u{600}.gpx", .route(.gpx, gzipped: false)),
        ("x.gpx\u{301}", .skipped),
        ("ÉTÉ.GPX", .route(.gpx, gzipped: false)),
        ("x.gpx.gz.txt", .skipped),
        ("x.gpx.txt", .skipped),
        ("x.gz", .skipped),
        ("x.gpx.gz.gz", .skipped),
        ("x.gpxx", .skipped),
        ("xgpx", .skipped),
        ("activities.csv", .skipped),
        ("media/1.jpg", .skipped),
        ("x.json", .skipped),
        ("", .skipped),
    ])
    func kinds(name: String, kind: ImportEntryKind) {
        #expect(ImportEntry.kind(ofName: name) == kind)
    }

    @Test(arguments: [
        "/x.gpx", "/activities/1.fit", "\\x.gpx", "\\\\server\\share\\x.gpx", "C:\\x.gpx", "c:/x.gpx", "C:x.gpx",
        "../x.gpx", "a/../b.gpx", "a\u{600}/../b.gpx", "/\u{301}x.gpx", "a\\..\\b.gpx", "a/..", "..",
        "activities/../../etc/x.tcx",
    ])
    func refusedNamesAreSkipped(name: String) {
        #expect(ImportEntry.isRefusedName(name))
        #expect(ImportEntry.kind(ofName: name) == .skipped)
    }

    @Test(arguments: ["x.gpx", "a/b.gpx", "a..b/c.gpx", "./x.gpx", "a/.../b.fit", "1:x.gpx", "ab:x.gpx"])
    func acceptedNames(name: String) {
        #expect(!ImportEntry.isRefusedName(name))
        #expect(ImportEntry.kind(ofName: name) != .skipped)
    }

    @Test(arguments: ["activities/", "x.gpx/", "a/b.tcx.gz/", "/"])
    func directoriesAreSkipped(name: String) {
        #expect(ImportEntry.kind(ofName: name) == .skipped)
    }

    @Test func activitiesCSVAtTheRootOnly() {
        for name in ["activities.csv", "Activities.CSV", "ACTIVITIES.csv", "./activities.csv"] {
            #expect(ImportEntry.isStravaActivitiesCSV(name), "\(name)")
        }
        for name in [
            "export/activities.csv", "/activities.csv", "activities.csv.gz", "activities.csv/", "my-activities.csv",
        ] {
            #expect(!ImportEntry.isStravaActivitiesCSV(name), "\(name)")
        }
    }

    // MARK: - TCX with white space before its declaration

    static func tcx(_ name: String) throws -> Data {
        try TestData.data("tcx/\(name)")
    }

    @Test(arguments: [
        Array("\n  ".utf8), [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF] + Array("\n  ".utf8),
        Array("          ".utf8), Array("\r\n\t".utf8) + [0xEF, 0xBB, 0xBF], Array(" ".utf8),
    ])
    func aTCXFileMayStartWithWhiteSpace(prefix: [UInt8]) throws {
        for name in ["sample.tcx", "running.tcx"] {
            let plain = try Self.tcx(name)
            let padded = Data(prefix) + plain
            let want = try TCXReader.read(plain)
            #expect(try TCXReader.read(padded) == want)
            let file = try RouteFile.read(padded, fileName: "activities/1.tcx")
            #expect(file.format == .tcx && file.points == TrackPoint.sortedByTime(want.points))
        }
    }

    @Test func errorLinesCountTheLeadingLines() throws {
        let body = """
            <?xml version="1.0"
                  encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Lap><Track>
            <Trackpoint><Position><LatitudeDegrees>x</LatitudeDegrees><LongitudeDegrees>1</LongitudeDegrees></Position>
            <Time>2026-01-05T07:00:00Z</Time></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let plain = try #require(throws: FormatError.self) { try TCXReader.read(Data(body.utf8)) }
        let padded = try #require(throws: FormatError.self) { try TCXReader.read(Data(("\n\n  " + body).utf8)) }
        #expect(plain.field == "points" && padded.field == "points")
        let line = try #require(plain.line)
        #expect(padded.line == line + 2)
        // Not well-formed after the blanks: still refused, on the right line.
        let broken = try #require(throws: FormatError.self) {
            try TCXReader.read(Data("\n\n  <?xml version=\"1.0\"?>\n<TrainingCenterDatabase>\n</Oops>".utf8))
        }
        #expect(broken.field == "body" && broken.line == 5, "\(broken)")
    }

    @Test func onlyTheLeadingRunIsTouched() {
        /// `text` with every character but a line break made a space.
        func blanked(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? $0 : " " }))
        }
        let declaration = "<?xml version=\"1.0\"?>"
        let cases: [(String, String)] = [
            (declaration + "<a/>", declaration + "<a/>"),
            ("\u{FEFF}" + declaration + "<a/>", "\u{FEFF}" + declaration + "<a/>"),
            ("\n " + declaration + "<a/>", "\n " + blanked(declaration) + "<a/>"),
            ("\u{FEFF}\r\n" + declaration, "   \r\n" + blanked(declaration)),
            (" \u{FEFF}" + declaration, "    " + blanked(declaration)),
            (
                "\n<?xml version=\"1.0\"\n  encoding=\"UTF-8\"?><a/>",
                "\n" + blanked("<?xml version=\"1.0\"\n  encoding=\"UTF-8\"?>") + "<a/>"
            ),
            ("\u{FEFF}\n<a/>", "   \n<a/>"),
            ("\n\t<a/>", "\n\t<a/>"),
            (" <?xml-stylesheet href=\"x\"?><a/>", " <?xml-stylesheet href=\"x\"?><a/>"),
            (" <?xml version=\"1.0\"", " <?xml version=\"1.0\""),
            ("", ""),
            ("  ", "  "),
        ]
        for (input, output) in cases {
            let got = XMLSafety.blankingMisplacedDeclaration(Data(input.utf8))
            #expect(String(decoding: got, as: UTF8.self) == output, "\(input.debugDescription)")
        }
        // A slice keeps its indices.
        let slice = Data("xx\n <?xml version=\"1.0\"?><a/>".utf8).dropFirst(2)
        let got = XMLSafety.blankingMisplacedDeclaration(slice)
        #expect(got.startIndex == 2 && String(decoding: got, as: UTF8.self) == "\n " + blanked(declaration) + "<a/>")
    }
}
