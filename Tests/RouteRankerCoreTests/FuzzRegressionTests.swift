import Foundation
import Testing

@testable import RouteRankerCore

/// Inputs libFuzzer found that crashed a parser (scripts/fuzz; also kept in Fuzz/Corpus): each must
/// now be a clear `FormatError`.
@Suite struct FuzzRegressionTests {
    /// FoundationXML crashed on an element name that is not UTF-8; such documents never reach it now.
    @Test(arguments: ["fuzz/gpx-not-utf8-element.gpx", "fuzz/tcx-not-utf8-element.tcx"])
    func xmlThatIsNotUTF8IsRefusedBeforeParsing(_ file: String) throws {
        let data = try TestData.data(file)
        #expect(throws: FormatError.self) { try GPXReader.read(data) }
        #expect(throws: FormatError.self) { try TCXReader.read(data) }
        #expect(throws: FormatError.self) { try RouteFile.read(data, fileName: "upload") }
    }

    /// FoundationXML passed the null data of `<?target?>` to `strlen`; such documents are refused.
    @Test func processingInstructionWithoutDataIsRefusedBeforeParsing() throws {
        let data = try TestData.data("fuzz/gpx-empty-processing-instruction.gpx")
        #expect(throws: FormatError.self) { try GPXReader.read(data) }
        #expect(throws: FormatError.self) { try TCXReader.read(data) }
        let gpx = Data(#"<?xml version="1.0"?><gpx><?note ?><trk/></gpx>"#.utf8)
        #expect(throws: FormatError.self) { try GPXReader.read(gpx) }
        #expect(!XMLSafety.hasEmptyProcessingInstruction(Data(#"<?xml version="1.0"?><?style href="a"?><gpx/>"#.utf8)))
    }
}
