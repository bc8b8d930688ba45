import Testing

@testable import RouteRankerCore

/// The tracker apps' protocols, on messages shaped as each app's documentation or source writes
/// them.
@Suite struct TrackerProtocolTests {
    static func ownTracks(_ json: String) throws -> TrackerReport { try OwnTracksMessage.read(Array(json.utf8)) }

    static func osmAnd(_ query: String) -> (key: String?, report: TrackerReport) {
        let pairs = query.split(separator: "&").map { part -> (String, String) in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
        }
        let lookup: (String) -> String? = { name in pairs.first { $0.0 == name }?.1 }
        return (OsmAndMessage.key(lookup), OsmAndMessage.report(lookup))
    }

    // MARK: OwnTracks

    /// A location as OwnTracks Android writes it in HTTP mode, with the members listed in
    /// owntracks/booklet `docs/tech/json.md` (`_type=location`) and
    /// owntracks/android `project/app/src/main/java/org/owntracks/android/model/messages/MessageLocation.kt`.
    @Test func anAndroidLocationGivesItsPoint() throws {
        let message = """
            {"_type":"location","acc":12,"alt":231,"batt":87,"bs":1,"conn":"w","created_at":1764000003,\
            "lat":52.520008,"lon":13.404954,"m":1,"t":"u","tid":"ph","topic":"owntracks/anna/phone",\
            "tst":1764000000,"vac":3,"vel":14,"cog":270,"inregions":["Home"],"BSSID":"00:11:22:33:44:55"}
            """
        #expect(
            try Self.ownTracks(message)
                == .point(TrackPoint(lat: 52.520008, lon: 13.404954, t: 1_764_000_000, ele: 231, acc: 12)))
    }

    /// Android leaves out `acc`, `alt`, `vel`… when they are zero (booklet: "only added if they
    /// are not zero"): the point simply has no elevation or accuracy.
    @Test func absentAccuracyAndAltitudeAreAbsent() throws {
        #expect(
            try Self.ownTracks(#"{"_type":"location","lat":1.5,"lon":2.5,"tst":1764000000,"tid":"ph"}"#)
                == .point(TrackPoint(lat: 1.5, lon: 2.5, t: 1_764_000_000)))
    }

    @Test func otherMessageTypesAndAnEmptyBodyAreNothing() throws {
        // A transition, a waypoint, a status and a card as in booklet `docs/tech/json.md`.
        let messages = [
            #"{"_type":"transition","wtst":1764000000,"lat":1,"lon":2,"tst":1764000100,"acc":10,"event":"enter","desc":"Home","tid":"ph","t":"c"}"#,
            #"{"_type":"waypoint","desc":"Home","lat":1,"lon":2,"rad":100,"tst":1764000000}"#,
            #"{"_type":"waypoints","waypoints":[]}"#,
            #"{"_type":"status","android":{"wifistate":1}}"#,
            #"{"_type":"steps","tst":1764000000,"steps":10,"from":1,"to":2}"#,
            #"{"_type":"card","name":"Anna","face":""}"#,
            "", " \n",
        ]
        for message in messages { #expect(try Self.ownTracks(message) == .nothing, "\(message)") }
    }

    @Test func encryptedIsRefusedAsSuch() {
        #expect(throws: TrackerMessageEncrypted.self) {
            try Self.ownTracks(#"{"_type":"encrypted","data":"c2VjcmV0"}"#)
        }
    }

    @Test func aLocationWithoutAUsablePositionOrTimeIsUnusable() throws {
        let messages = [
            #"{"_type":"location","lat":91,"lon":2,"tst":1764000000}"#,
            #"{"_type":"location","lat":1,"lon":-180.5,"tst":1764000000}"#,
            #"{"_type":"location","lat":1,"lon":2}"#,
            #"{"_type":"location","lat":"1","lon":2,"tst":1764000000}"#,
            #"{"_type":"location","lat":1,"lon":2,"tst":true}"#,
            #"{"_type":"location","lat":1,"lon":2,"tst":0}"#,
            #"{"_type":"location","lat":1e999,"lon":2,"tst":1764000000}"#,
        ]
        for message in messages { #expect(try Self.ownTracks(message) == .unusable, "\(message)") }
    }

    @Test func aBodyThatIsNotOneJSONObjectWithATypeIsNotTheProtocol() {
        for body in ["[]", "{}", #"{"_type":1}"#, #"{"_type":"location",}"#, "lat=1", #"{"_type":"location"} x"#] {
            #expect(throws: FormatError.self, "\(body)") { try Self.ownTracks(body) }
        }
    }

    // MARK: OsmAnd

    /// Traccar Client for Android's request: traccar/traccar-client-android
    /// `app/src/main/java/org/traccar/client/ProtocolFormatter.kt` (`id`, `timestamp` in s, `lat`,
    /// `lon`, `speed` in knots, `bearing`, `altitude`, `accuracy`, `batt`).
    @Test func aTraccarClientRequestGivesItsPointAndKey() {
        let (key, report) = Self.osmAnd(
            "id=abc&timestamp=1764000000&lat=52.52&lon=13.405&speed=2.5&bearing=90.0&altitude=34.5&accuracy=8.0&batt=71.0"
        )
        #expect(key == "abc")
        #expect(report == .point(TrackPoint(lat: 52.52, lon: 13.405, t: 1_764_000_000, ele: 34.5, acc: 8)))
    }

    /// GPSLogger's custom URL with the placeholders `%LAT`, `%LON`, `%TIMESTAMP`, `%ALT`, `%ACC`
    /// substituted (mendhak/gpslogger, "Log to custom URL"), keyed by `deviceid`.
    @Test func aGPSLoggerURLWithDeviceIDGivesItsPoint() {
        let (key, report) = Self.osmAnd("deviceid=k&lat=1.25&lon=-2.5&timestamp=1764000000&altitude=10&accuracy=4.5")
        #expect(key == "k")
        #expect(report == .point(TrackPoint(lat: 1.25, lon: -2.5, t: 1_764_000_000, ele: 10, acc: 4.5)))
    }

    @Test func locationTakesTheirPlace() {
        #expect(
            Self.osmAnd("id=k&location=1.5,2.5&timestamp=1764000000").report
                == .point(TrackPoint(lat: 1.5, lon: 2.5, t: 1_764_000_000)))
    }

    @Test func aRequestWithoutPositionIsAHeartbeat() {
        #expect(Self.osmAnd("id=k&timestamp=1764000000&batt=50").report == .nothing)
        #expect(Self.osmAnd("id=k").report == .nothing)
    }

    @Test func anUnreadablePositionOrTimeIsUnusable() {
        for query in [
            "id=k&lat=1&lon=2", "id=k&lat=abc&lon=2&timestamp=1764000000", "id=k&lat=1&timestamp=1764000000",
            "id=k&lat=nan&lon=2&timestamp=1764000000", "id=k&lat=1&lon=2&timestamp=yesterday",
            "id=k&lat=100&lon=2&timestamp=1764000000",
        ] {
            #expect(Self.osmAnd(query).report == .unusable, "\(query)")
        }
    }

    @Test func everyTimestampForm() {
        #expect(TrackerTime.seconds("1764000000") == 1_764_000_000)
        #expect(TrackerTime.seconds("1764000000.5") == 1_764_000_000.5)
        #expect(TrackerTime.seconds("2147483647") == 2_147_483_647)
        #expect(TrackerTime.seconds("2147483648") == 2_147_483.648)
        #expect(TrackerTime.seconds("1764000000123") == 1_764_000_000.123)
        #expect(TrackerTime.seconds("2025-11-24T16:00:00Z") == 1_764_000_000)
        #expect(TrackerTime.seconds("2025-11-24T16:00:00.250Z") == 1_764_000_000.25)
        #expect(TrackerTime.seconds("2025-11-24T17:00:00+01:00") == 1_764_000_000)
        // An unescaped `+` of the offset, read from a query string as a space.
        #expect(TrackerTime.seconds("2025-11-24T17:00:00 01:00") == 1_764_000_000)
        for bad in ["", "abc", "-5", "1e9", "0x10", "2025-13-01T00:00:00Z", ".5", "1.2.3"] {
            #expect(TrackerTime.seconds(bad) == nil, "\(bad)")
        }
    }

    /// Traccar Client 9.x's JSON, in the shape API.md gives for it (the
    /// background-geolocation location object: `{"device_id", "location": {"timestamp",
    /// "coords": {…}, "battery", …}}`); not checked against the app's source here.
    @Test func traccarClientJSON() throws {
        let body = """
            {"device_id":"key1","location":{"timestamp":"2025-11-24T16:00:00.000Z","is_moving":true,\
            "odometer":120.5,"coords":{"latitude":52.52,"longitude":13.405,"accuracy":5.5,"speed":1.2,\
            "heading":90,"altitude":34},"battery":{"level":0.71,"is_charging":false},"activity":{"type":"walking"}}}
            """
        let message = try OsmAndMessage.readJSON(Array(body.utf8))
        #expect(message.key == "key1")
        #expect(message.report == .point(TrackPoint(lat: 52.52, lon: 13.405, t: 1_764_000_000, ele: 34, acc: 5.5)))
        let heartbeat = try OsmAndMessage.readJSON(Array(#"{"device_id":"key1","heartbeat":true}"#.utf8))
        #expect(heartbeat.report == .nothing)
        #expect(throws: FormatError.self) { try OsmAndMessage.readJSON(Array("[1]".utf8)) }
        #expect(throws: FormatError.self) { try OsmAndMessage.readJSON(Array(#"{"device_id":"k",}"#.utf8)) }
    }

    @Test func routeNamesFollowTheFirstPointsUTCMinute() {
        // In the server; the format is Core's RFC 3339 cut to the minute.
        #expect(RFC3339.format(1_764_000_059).prefix(16) == "2025-11-24T16:00")
    }
}
