import Foundation
import Testing

@testable import RouteRankerCore

/// Chained FIT bodies that mix an activity with other files (python-fitparse's
/// `activity-settings.fit`, an activity followed by a settings file from another device, was
/// refused). A chain is an activity when one of its files is; its points come from every file,
/// its name and activity from the first activity file's session.
@Suite struct FITChainTests {
    static func data(_ name: String) throws -> Data {
        try TestData.data("fit/\(name)")
    }

    static func referencePoints(_ name: String) -> [FITReaderTests.ReferencePoint] {
        FITReaderTests.references[name]?.points ?? []
    }

    @Test func anActivityThenASettingsFileIsTheActivity() throws {
        let name = "synthetic/chained-activity-settings.fit"
        for partial in [false, true] {
            let fit = try FITReader.read(try Self.data(name), partial: partial)
            FITReaderTests.expectSame(fit.points, Self.referencePoints(name), name)
            #expect(fit.points.count == 5)
            #expect(fit.sport == 2 && fit.activity == .ride && fit.fileCount == 2 && fit.defect == nil)
            #expect(fit.defaultName.hasPrefix("cycling "))
        }
    }

    /// The settings file comes first and holds a second `file_id` saying activity and a running
    /// session: its first `file_id` rules, so the name and activity come from the activity file's
    /// session (cycling), not from the body's first session (which the SDK summary reports).
    @Test func aSettingsFileThenAnActivityIsTheActivity() throws {
        let name = "synthetic/chained-settings-activity.fit"
        for partial in [false, true] {
            let fit = try FITReader.read(try Self.data(name), partial: partial)
            FITReaderTests.expectSame(fit.points, Self.referencePoints(name), name)
            #expect(fit.points.count == 5)
            #expect(fit.sport == 2 && fit.activity == .ride && fit.fileCount == 2 && fit.defect == nil)
            #expect(fit.defaultName.hasPrefix("cycling "))
        }
    }

    /// A second `file_id` saying activity does not make a settings file one.
    @Test func aSecondFileIDDoesNotChangeTheFileType() throws {
        let data = try Self.data("synthetic/settings-with-activity-file-id.fit")
        for partial in [false, true] {
            let error = try #require(throws: FITFileTypeError.self) { try FITReader.read(data, partial: partial) }
            #expect(error.fileType == 2)
            #expect(error.message.contains("settings"))
        }
    }

    /// Real device files chained with the settings file, in both orders and around it.
    @Test(arguments: [
        ["device/garmin-fenix-5-run.fit", "synthetic/settings.fit"],
        ["synthetic/settings.fit", "device/garmin-fenix-5-run.fit"],
        ["synthetic/settings.fit", "device/garmin-fenix-5-run.fit", "device/garmin-edge-820-bike.fit"],
        [
            "device/garmin-fenix-5-run.fit", "synthetic/settings-with-activity-file-id.fit",
            "device/garmin-edge-820-bike.fit",
        ],
    ])
    func everyFileGivesItsPointsAndTheFirstActivityNamesTheRoute(names: [String]) throws {
        let body = try names.reduce(into: Data()) { $0 += try Self.data($1) }
        let fit = try FITReader.read(body)
        FITReaderTests.expectSame(fit.points, names.flatMap(Self.referencePoints), names.joined(separator: " + "))
        // The run is the first activity of every chain: its session names the route.
        #expect(fit.sport == 1 && fit.activity == .run)
        #expect(fit.fileCount == names.count)
        #expect(try FITReader.read(body, partial: true) == fit)
    }

    /// Without an activity in the chain, the body is refused as the first file's type.
    @Test(arguments: [
        ["synthetic/settings.fit", "synthetic/settings.fit"],
        ["synthetic/settings-with-activity-file-id.fit", "synthetic/settings.fit"],
    ])
    func aChainWithoutAnActivityIsRefused(names: [String]) throws {
        let body = try names.reduce(into: Data()) { $0 += try Self.data($1) }
        for partial in [false, true] {
            let error = try #require(throws: FITFileTypeError.self) { try FITReader.read(body, partial: partial) }
            #expect(error.fileType == 2)
            #expect(error.message.contains("settings"))
        }
    }

    /// In partial mode, an activity followed by a settings file cut short keeps the activity.
    @Test func partialModeKeepsTheActivityBeforeADamagedSettingsFile() throws {
        let run = try Self.data("device/garmin-fenix-5-run.fit")
        let settings = try Self.data("synthetic/settings.fit")
        let body = run + settings.prefix(settings.count - 10)
        #expect(throws: FormatError.self) { try FITReader.read(body) }
        let fit = try FITReader.read(body, partial: true)
        FITReaderTests.expectSame(fit.points, Self.referencePoints("device/garmin-fenix-5-run.fit"), "cut chain")
        #expect(fit.activity == .run && fit.defect != nil)
    }
}
