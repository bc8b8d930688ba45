/// API.md's rules for one point or annotation, shared by every reader so they agree to the letter.
public enum PointValidation {
    /// The largest `t` accepted: 9999-12-31T23:59:59Z.
    public static let maxTime = 253_402_300_799.0

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
        if let ele, !ele.isFinite { throw fail("ele", "ele must be a finite number") }
        if let acc, !(acc.isFinite && acc >= 0) { throw fail("acc", "acc must be a finite number ≥ 0") }
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
