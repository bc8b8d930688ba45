import Foundation
import Testing

@testable import RouteRankerCore

/// Strava's `activities.csv`: names and activities by `Filename`, API.md's type mapping.
@Suite struct StravaActivitiesTests {
    /// The start of a real export's header (with its repeated names) and three rows.
    static let csv = """
        Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,\
        Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,\
        Bike Weight,Elapsed Time,Moving Time,Distance,Max Speed,Relative Effort\r
        1234567890,"Jan 5, 2026, 7:01:02 AM","Morning Run, by the lake",Run,"Easy ""recovery"" run",1800,5.01,\
        ,,false,,,activities/1234567890.gpx.gz,,,1800.0,1750.0,5012.3,4.1,\r
        1234567891,"Jan 6, 2026, 6:00:00 PM",Evening Ride,Ride,,3600,30.2,,,false,,,activities/1234567891.fit.gz,,,\
        3600.0,3500.0,30200.0,12.5,\r
        1234567892,"Jan 7, 2026, 9:00:00 AM",Swim,Swim,,1200,1.5,,,false,,,,,,1200.0,1200.0,1500.0,1.3,\r

        """

    @Test func rowsByFilename() throws {
        let strava = try StravaActivities(parsing: Data(Self.csv.utf8))
        #expect(strava.entries.count == 2)
        #expect(
            strava.entry(forPath: "activities/1234567890.gpx.gz")
                == .init(name: "Morning Run, by the lake", activity: .run))
        #expect(strava.entry(forPath: "activities/1234567891.fit.gz") == .init(name: "Evening Ride", activity: .ride))
        #expect(strava.entry(forPath: "./activities/1234567891.fit.gz")?.name == "Evening Ride")
        // Exact: another case or folder is another file.
        #expect(strava.entry(forPath: "Activities/1234567890.gpx.gz") == nil)
        #expect(strava.entry(forPath: "export/activities/1234567890.gpx.gz") == nil)
        #expect(strava.entry(forPath: "activities/1234567890.gpx") == nil)
    }

    @Test(arguments: [
        ("Run", Activity.run), ("Trail Run", .run), ("Virtual Run", .run),
        ("Ride", .ride), ("Virtual Ride", .ride), ("E-Bike Ride", .ride), ("Mountain Bike Ride", .ride),
        ("Gravel Ride", .ride),
        ("Walk", .walk), ("Hike", .walk),
        ("Swim", .other), ("Alpine Ski", .other), ("Workout", .other), ("run", .other), ("Run ", .other),
        ("", .other),
    ])
    func stravaTypes(type: String, activity: Activity) throws {
        #expect(StravaActivities.activity(stravaType: type) == activity)
        let strava = try StravaActivities(parsing: Data("Filename,Activity Type\na.gpx,\"\(type)\"\n".utf8))
        #expect(strava.entry(forPath: "a.gpx")?.activity == activity)
    }

    @Test func names() throws {
        #expect(StravaActivities.routeName("Lunch Run") == "Lunch Run")
        #expect(StravaActivities.routeName(" padded ") == " padded ")
        #expect(StravaActivities.routeName("") == nil)
        #expect(StravaActivities.routeName(" \t\n ") == nil)
        let long = String(repeating: "é", count: 150) + String(repeating: "🏃🏽‍♀️", count: 100)
        let cut = try #require(StravaActivities.routeName(long))
        #expect(cut.count == 200 && long.hasPrefix(cut))
        #expect(StravaActivities.routeName(String(repeating: "x", count: 200)) == String(repeating: "x", count: 200))
        // Blank within the first 200 characters: nothing the API would take.
        #expect(StravaActivities.routeName(String(repeating: " ", count: 200) + "x") == nil)
    }

    @Test func missingValuesLeaveTheFileItsOwn() throws {
        let csv = """
            Filename,Activity Name,Activity Type
            a.gpx,,Run
            b.gpx,\u{20}\u{20}
            c.gpx
            ,Named,Ride
            d.tcx,First,Hike
            d.tcx,Second,Ride

            """
        let strava = try StravaActivities(parsing: Data(csv.utf8))
        #expect(strava.entry(forPath: "a.gpx") == .init(name: nil, activity: .run))
        #expect(strava.entry(forPath: "b.gpx") == .init(name: nil, activity: nil))
        #expect(strava.entry(forPath: "c.gpx") == .init(name: nil, activity: nil))
        #expect(strava.entry(forPath: "d.tcx") == .init(name: "First", activity: .walk))
        #expect(strava.entries.count == 4)
        // No Activity Type column: no activity; no Filename column: no entries.
        let untyped = try StravaActivities(parsing: Data("Activity Name,Filename\nX,a.fit\n".utf8))
        #expect(untyped.entry(forPath: "a.fit") == .init(name: "X", activity: nil))
        #expect(try StravaActivities(parsing: Data("Activity Name,Activity Type\nX,Run\n".utf8)).entries.isEmpty)
    }

    @Test func aBrokenFileIsAFormatError() throws {
        #expect(throws: FormatError.self) {
            try StravaActivities(parsing: Data("Filename,Activity Name\na.gpx,\"open\n".utf8))
        }
    }

    @Test func normalizedPaths() {
        #expect(StravaActivities.normalizedPath("./activities/1.gpx") == "activities/1.gpx")
        #expect(StravaActivities.normalizedPath("././a.gpx") == "a.gpx")
        #expect(StravaActivities.normalizedPath("activities/./1.gpx") == "activities/./1.gpx")
        #expect(StravaActivities.normalizedPath("/a.gpx") == "/a.gpx")
    }
}
