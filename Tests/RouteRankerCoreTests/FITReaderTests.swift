import Foundation
import Testing

@testable import RouteRankerCore

/// The FIT reader against `Data/fit-references.json`, made by `scripts/make-fit-references`
/// with Garmin's FIT SDK for Python (and, for compressed timestamps, the values it wrote).
@Suite struct FITReaderTests {
    struct Reference: Decodable {
        var points: [ReferencePoint]?
        var sport: UInt8?
        var fileTypes: [UInt8]?
        /// Chained files, when the reference counts them by their headers (a multisport watch's
        /// later files may hold no file_id).
        var fileCount: Int?
        var error: String?
        var offset: Int?
        /// Where partial reading stops, when not where whole reading reports the damage.
        var partialOffset: Int?
        var index: Int?
        var partialPoints: [ReferencePoint]?
    }

    struct ReferencePoint: Decodable {
        var lat: Double
        var lon: Double
        var t: Double
        var ele: Double?
        var acc: Double?
    }

    static let references: [String: Reference] = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? decoder.decode([String: Reference].self, from: TestData.data("fit-references.json"))) ?? [:]
    }()

    static let activityFiles = references.filter { $0.value.points != nil && $0.value.fileTypes?.first == 4 }
        .keys.sorted()
    /// The damaged files derived from the fenix 5 run, and real files damaged in the wild.
    static let damagedFiles = references.filter {
        $0.key.hasPrefix("damaged/") || ($0.key.hasPrefix("device/") && $0.value.error != nil)
    }.keys.sorted()

    static func expectSame(_ got: [TrackPoint], _ want: [ReferencePoint], _ name: String) {
        #expect(got.count == want.count, "\(name): point count")
        for (i, (g, w)) in zip(got, want).enumerated() {
            #expect(abs(g.lat - w.lat) <= 1e-12 && abs(g.lon - w.lon) <= 1e-12, "\(name) point \(i): position")
            #expect(g.t == w.t, "\(name) point \(i): t")
            #expect(g.ele == w.ele, "\(name) point \(i): ele \(String(describing: g.ele))")
            #expect(g.acc == w.acc, "\(name) point \(i): acc")
        }
    }

    @Test func referencesAreThere() {
        #expect(Self.activityFiles.count >= 17)
        #expect(Self.damagedFiles.count >= 6)
    }

    @Test(arguments: activityFiles)
    func matchesTheSDK(name: String) throws {
        let ref = try #require(Self.references[name])
        let fit = try FITReader.read(try TestData.data("fit/\(name)"))
        Self.expectSame(fit.points, ref.points ?? [], name)
        #expect(fit.sport == ref.sport)
        #expect(fit.fileCount == ref.fileCount ?? ref.fileTypes?.count)
        #expect(fit.defect == nil)
        // Partial mode reads a whole file the same way.
        #expect(try FITReader.read(try TestData.data("fit/\(name)"), partial: true) == fit)
    }

    @Test(arguments: damagedFiles + ["synthetic/data-before-definition.fit"])
    func damagedFilesGiveTheirOffset(name: String) throws {
        let ref = try #require(Self.references[name])
        let data = try TestData.data("fit/\(name)")
        let error = try #require(throws: FormatError.self) { try FITReader.read(data) }
        #expect(error.field == "body")
        #expect(error.offset == ref.offset, "\(name): \(error.message)")
        #expect(error.message.contains("byte \(ref.offset ?? -1)"))
    }

    @Test(arguments: damagedFiles)
    func partialModeKeepsWhatCameBeforeTheDefect(name: String) throws {
        let ref = try #require(Self.references[name])
        let data = try TestData.data("fit/\(name)")
        guard let partial = ref.partialPoints else {
            // Not FIT at all, or cut: nothing whole to keep, or a prefix of the run's points.
            if name.contains("truncated") {
                let fit = try FITReader.read(data, partial: true)
                let full = Self.references["device/garmin-fenix-5-run.fit"]?.points ?? []
                #expect(fit.defect?.offset != nil)
                Self.expectSame(fit.points, Array(full.prefix(fit.points.count)), name)
            } else {
                #expect(throws: FormatError.self) { try FITReader.read(data, partial: true) }
            }
            return
        }
        let fit = try FITReader.read(data, partial: true)
        Self.expectSame(fit.points, partial, name)
        if name.contains("garbage") { #expect(fit.defect?.offset == ref.offset) }
        if let offset = ref.partialOffset { #expect(fit.defect?.offset == offset) }
    }

    @Test func aSettingsFileIsNotAnActivity() throws {
        let data = try TestData.data("fit/synthetic/settings.fit")
        let error = try #require(throws: FITFileTypeError.self) { try FITReader.read(data) }
        #expect(error.fileType == 2)
        #expect(error.message.contains("settings"))
        #expect(throws: FITFileTypeError.self) { try FITReader.read(data, partial: true) }
    }

    @Test func everyOneBitFlipIsAnErrorNotACrash() throws {
        for name in [
            "synthetic/big-endian.fit", "synthetic/compressed-timestamps.fit", "synthetic/developer-fields.fit",
            "device/DeveloperData.fit",
        ] {
            let data = try TestData.data("fit/\(name)")
            for bit in 0..<(data.count * 8) {
                var flipped = data
                flipped[bit / 8] ^= 1 << (bit % 8)
                #expect(throws: (any Error).self, "\(name) bit \(bit)") { try FITReader.read(flipped) }
                // Partial mode may keep points or throw, but must come back.
                _ = try? FITReader.read(flipped, partial: true)
            }
        }
    }

    @Test func everyCutIsAnErrorNotACrash() throws {
        let data = try TestData.data("fit/device/garmin-fenix-5-bike.fit")
        let full = try FITReader.read(data).points
        for length in 0..<data.count {
            let cut = data.prefix(length)
            let error = try #require(throws: FormatError.self) { try FITReader.read(cut) }
            #expect(error.offset != nil)
            if let fit = try? FITReader.read(cut, partial: true) {
                #expect(Array(full.prefix(fit.points.count)) == fit.points)
            }
        }
    }

    /// Random overwrites of a chained body (deterministic generator): strict reading fails
    /// cleanly, partial reading comes back, and never crashes or hangs.
    @Test func randomDamageNeverCrashes() throws {
        let data = try TestData.data("fit/synthetic/chained.fit")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<500 {
            var damaged = data
            for _ in 0..<(1 + next() % 8) {
                damaged[next() % damaged.count] ^= UInt8(1 + next() % 255)
            }
            #expect(throws: (any Error).self) { try FITReader.read(damaged) }
            _ = try? FITReader.read(damaged, partial: true)
        }
    }

    @Test func activityAndNameFollowTheContract() throws {
        #expect(FITProfile.activity(sport: 1) == .run)
        #expect(FITProfile.activity(sport: 2) == .ride)
        #expect(FITProfile.activity(sport: 11) == .walk)
        #expect(FITProfile.activity(sport: 17) == .walk)
        #expect(FITProfile.activity(sport: 24) == .drive)
        #expect(FITProfile.activity(sport: 5) == .other)
        #expect(FITProfile.activity(sport: nil) == .other)
        #expect(FITProfile.sportName(21) == "e_biking")
        #expect(FITProfile.sportName(nil) == "activity")
        let run = try FITReader.read(try TestData.data("fit/device/garmin-fenix-5-run.fit"))
        let first = try #require(run.points.map(\.t).min())
        #expect(run.defaultName == "running \(ImportNaming.utcDate(first))")
        #expect(run.activity == .run)
        #expect(ImportNaming.utcDate(0) == "1970-01-01")
        #expect(ImportNaming.utcDate(951_782_400) == "2000-02-29")
        #expect(ImportNaming.utcDate(1_767_225_599) == "2025-12-31")
        #expect(ImportNaming.name(sport: "activity", firstTime: nil) == "activity")
    }

    @Test func aPositionedRecordWithoutTimeIsAPointError() throws {
        let ref = try #require(Self.references["synthetic/record-without-time.fit"])
        let data = try TestData.data("fit/synthetic/record-without-time.fit")
        for partial in [false, true] {
            let error = try #require(throws: FormatError.self) { try FITReader.read(data, partial: partial) }
            #expect(error.field == "points" && error.key == "timestamp")
            #expect(error.index == ref.index && error.offset == ref.offset)
        }
    }

    @Test func developerFieldsAreReadPast() throws {
        let data = try TestData.data("fit/device/DeveloperData.fit")
        // The sample's records carry no position, so nothing is kept and nothing fails.
        #expect(try FITReader.read(data).points.isEmpty)
    }

    @Test func looksLikeFIT() throws {
        #expect(FITReader.looksLikeFIT(try TestData.data("fit/device/garmin-fenix-5-run.fit")))
        #expect(!FITReader.looksLikeFIT(try TestData.data("fit/damaged/not-fit.fit")))
        #expect(!FITReader.looksLikeFIT(Data()))
    }
}
