import Foundation
import Testing

@testable import RouteRankerCore

/// The TCX reader against `Data/tcx-references.json` (ElementTree's reading, made by
/// `scripts/make-fit-references`), and the XML protections it shares with GPX.
@Suite struct TCXReaderTests {
    struct Reference: Decodable {
        var sport: String?
        var notes: String?
        var points: [ReferencePoint]?
        var missingTimeIndex: Int?
    }

    struct ReferencePoint: Decodable {
        var lat: Double
        var lon: Double
        var time: String
        var ele: Double?
    }

    static let references: [String: Reference] = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? decoder.decode([String: Reference].self, from: TestData.data("tcx-references.json"))) ?? [:]
    }()

    @Test func referencesAreThere() {
        #expect(Self.references.count >= 10)
    }

    @Test(arguments: references.keys.sorted())
    func matchesTheReference(name: String) throws {
        let ref = try #require(Self.references[name])
        let data = try TestData.data("tcx/\(name)")
        if let index = ref.missingTimeIndex {
            let error = try #require(throws: FormatError.self) { try TCXReader.read(data) }
            #expect(error.field == "points" && error.index == index && error.key == "Time")
            return
        }
        let doc = try TCXReader.read(data)
        let want = ref.points ?? []
        #expect(doc.points.count == want.count)
        for (g, w) in zip(doc.points, want) {
            #expect(g.lat == w.lat && g.lon == w.lon && g.ele == w.ele)
            #expect(g.t == RFC3339.parse(w.time))
        }
        #expect(doc.sport == ref.sport)
        #expect(doc.notes == ref.notes)
        #expect(try RouteFile.read(data, fileName: "upload").format == .tcx)
    }

    @Test func activityAndName() throws {
        #expect(TCXReader.activity(sport: "Running") == .run)
        #expect(TCXReader.activity(sport: "Biking") == .ride)
        #expect(TCXReader.activity(sport: "Other") == .other)
        #expect(TCXReader.activity(sport: nil) == .other)
        let sample = try TCXReader.read(try TestData.data("tcx/sample.tcx"))
        #expect(sample.defaultName == "Biking 2026-01-05")
        let notes = try TCXReader.read(try TestData.data("tcx/activity_metadata.tcx"))
        #expect(notes.defaultName == "Morning run")
    }

    @Test func refusesDTDsEntitiesAndDeepNesting() {
        let dtd = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>
            <TrainingCenterDatabase>&a;</TrainingCenterDatabase>
            """
        #expect(throws: FormatError.self) { try TCXReader.read(Data(dtd.utf8)) }
        let deep =
            "<TrainingCenterDatabase>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
            + "</TrainingCenterDatabase>"
        let error = #expect(throws: FormatError.self) { try TCXReader.read(Data(deep.utf8)) }
        #expect(error?.message.contains("deeper") == true)
        #expect(throws: FormatError.self) { try TCXReader.read(Data("<gpx></gpx>".utf8)) }
        #expect(throws: FormatError.self) { try TCXReader.read(Data("<TrainingCenterDatabase>".utf8)) }
    }

    @Test func routeFileDetectsFITAndTCXByContent() throws {
        let fit = try TestData.data("fit/device/garmin-fenix-5-run.fit")
        let file = try RouteFile.read(fit, fileName: "activity.bin")
        #expect(file.format == .fit)
        #expect(file.points.count == 21)
        #expect(file.name?.hasPrefix("running ") == true)
        let tcx = try TestData.data("tcx/sample.tcx")
        #expect(RouteFile.detectFormat(tcx, fileName: "ride.xml") == .tcx)
        #expect(RouteFile.detectFormat(Data("<gpx></gpx>".utf8), fileName: "x") == .gpx)
    }
}
