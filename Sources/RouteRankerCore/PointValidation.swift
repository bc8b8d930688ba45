/// API.md's rules for one point or annotation, shared by every reader so they agree to the letter.
public enum PointValidation {
    /// The largest `t` accepted: 9999-12-31T23:59:59Z.
    public static let maxTime = 253_402_300_799.0

    /// The elevations accepted, metres: 12 km below the sea (the deepest trench is 11 km) to
    /// 100 km above it (the edge of space), API.md "Limits and hostile input".
    ///
    /// Why the ranges, and not only finiteness: every figure of a route's stats is a sum over its
    /// points, and a sum of finite values can still overflow to infinity (`ele` 1.7e308 then
    /// −1.7e308 gains 3.4e308 = ∞), which JSON cannot encode: a stored route whose stats are
    /// infinite breaks every list that shows it. With these ranges no sum can reach it: a route
    /// holds at most 1,000,000 points (`RouteIngest.maxPoints`), each step changes the elevation by
    /// at most 112,000 m, so gain and loss stay below 1,000,000 × 112,000 = 1.12e11 m; accuracy is
    /// never summed, and 1e6 m bounds anything derived from it. (Distances and durations are
    /// bounded by the coordinate and time ranges in the same way: at most 1,000,000 steps of half
    /// the Earth's circumference, 2.0e13 m, and 2.5e11 s.)
    public static let elevationRange: ClosedRange<Double> = -12_000...100_000

    /// The horizontal accuracies accepted, metres (see ``elevationRange`` for why a bound).
    public static let accuracyRange: ClosedRange<Double> = 0...1_000_000

    /// A validated point from raw values, or the error naming `index` and the bad key.
    /// `timeKey` is the name of the time member in the source (`t`, or `time` in GPX).
    public static func point(
        lat: Double?, lon: Double?, t: Double?, ele: Double?, acc: Double?, index: Int,
        timeKey: String = "t", line: Int? = nil
    ) throws -> TrackPoint {
        func fail(_ key: String, _ problem: String) -> FormatError {
            .point(index, key: key, problem, line: line)
        }
        guard let lat else { throw fail("lat", "lat is required") }
        guard lat.isFinite, (-90...90).contains(lat) else { throw fail("lat", "lat must be between -90 and 90") }
        guard let lon else { throw fail("lon", "lon is required") }
        guard lon.isFinite, (-180...180).contains(lon) else {
            throw fail("lon", "lon must be between -180 and 180")
        }
        guard let t else { throw fail(timeKey, "\(timeKey) is required") }
        guard isValidTime(t) else {
            throw fail(timeKey, "\(timeKey) must be after 1970-01-01T00:00:00Z and not after 9999-12-31T23:59:59Z")
        }
        if let ele, !elevationRange.contains(ele) {  // NaN is in no range
            throw fail("ele", "ele must be a number of metres from -12000 to 100000")
        }
        if let acc, !accuracyRange.contains(acc) {
            throw fail("acc", "acc must be a number of metres from 0 to 1000000")
        }
        return TrackPoint(lat: lat, lon: lon, t: t, ele: ele, acc: acc)
    }

    /// The longest annotation `text`, in characters (API.md, "Limits and hostile input").
    public static let maxAnnotationText = 1000

    /// A validated annotation; `t` may be absent; `text` at most ``maxAnnotationText`` characters,
    /// none that ``TextRules`` forbids.
    public static func annotation(
        lat: Double?, lon: Double?, t: Double?, text: String?, index: Int, timeKey: String = "t", line: Int? = nil
    ) throws -> Annotation {
        func fail(_ key: String, _ problem: String) -> FormatError {
            .annotation(index, key: key, problem, line: line)
        }
        guard let lat else { throw fail("lat", "lat is required") }
        guard lat.isFinite, (-90...90).contains(lat) else { throw fail("lat", "lat must be between -90 and 90") }
        guard let lon else { throw fail("lon", "lon is required") }
        guard lon.isFinite, (-180...180).contains(lon) else {
            throw fail("lon", "lon must be between -180 and 180")
        }
        if let t, !isValidTime(t) {
            throw fail(timeKey, "\(timeKey) must be after 1970-01-01T00:00:00Z and not after 9999-12-31T23:59:59Z")
        }
        guard let text else { throw fail("text", "text is required") }
        guard text.count <= maxAnnotationText else {
            throw fail("text", "text must be at most \(maxAnnotationText) characters")
        }
        if let problem = TextRules.problem(in: text, field: "text") { throw fail("text", problem) }
        return Annotation(lat: lat, lon: lon, t: t, text: text)
    }

    /// 0 < t ≤ ``maxTime``.
    public static func isValidTime(_ t: Double) -> Bool {
        t > 0 && t <= maxTime
    }
}
