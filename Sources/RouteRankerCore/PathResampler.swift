/// A route's path resampled every 10 m along its length: API.md's input to `similar`.
///
/// Stored compactly as two parallel arrays, `{"lat": [...], "lon": [...]}` in JSON/BSON
/// (16 bytes a point: 5 km is ~8 KB, 1,000 km ~1.6 MB).
public struct ResampledPath: Sendable, Hashable, Codable {
    /// The spacing along the path, metres.
    public static let spacing = 10.0

    /// Latitudes in degrees.
    public private(set) var lat: [Double]
    /// Longitudes in degrees, `lon[i]` going with `lat[i]`.
    public private(set) var lon: [Double]

    /// An empty path.
    public init() {
        lat = []
        lon = []
    }

    /// A path from parallel arrays; nil when their lengths differ.
    public init?(lat: [Double], lon: [Double]) {
        guard lat.count == lon.count else { return nil }
        self.lat = lat
        self.lon = lon
    }

    /// Decodes `{"lat","lon"}`, refusing arrays of different lengths.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let lat = try c.decode([Double].self, forKey: .lat)
        let lon = try c.decode([Double].self, forKey: .lon)
        guard let path = ResampledPath(lat: lat, lon: lon) else {
            throw DecodingError.dataCorruptedError(
                forKey: .lon, in: c, debugDescription: "lat and lon differ in length")
        }
        self = path
    }

    /// Number of points.
    public var count: Int { lat.count }
    /// Whether the path has no point (a route without points).
    public var isEmpty: Bool { lat.isEmpty }
    /// The i-th point.
    public subscript(i: Int) -> Coordinate { Coordinate(lat: lat[i], lon: lon[i]) }
    /// All points.
    public var coordinates: [Coordinate] { (0..<count).map { self[$0] } }

    mutating func append(_ c: Coordinate) {
        lat.append(c.lat)
        lon.append(c.lon)
    }

    /// The resampled path of `points` in one go (see ``PathResampler``).
    public static func resample(_ points: some Sequence<Coordinate>) -> ResampledPath {
        var r = PathResampler()
        r.add(contentsOf: points)
        return r.path
    }

    private enum CodingKeys: String, CodingKey { case lat, lon }
}

/// Resamples a route as its points arrive: the points at 0, 10, 20, … m of cumulative
/// geodesic length, each exactly on its segment's geodesic, plus the last point.
///
/// Streaming: feed the kept points in any chunks (the output is the same); the state besides
/// the output is the last point, the length so far and the next mark, so memory is bounded by
/// the output. Codable, so a server can keep it with an unfinished route and go on later.
///
/// Segment lengths are `Geodesic.distance`, summed in order, so the cumulative length is the
/// route's `distance_m`; a mark inside a segment is placed with Karney's direct problem along
/// the segment's initial azimuth (the inverse problem's), which lies exactly on the geodesic.
public struct PathResampler: Sendable, Hashable, Codable {
    /// The marks so far, without the provisional end point (see ``path``).
    public private(set) var marks = ResampledPath()
    /// The last point fed.
    private var last: Coordinate?
    /// Cumulative geodesic length at `last`, metres.
    private var length = 0.0
    /// The next mark is at `nextMark`·10 m (an integer count, so marks do not drift).
    private var nextMark = 0
    /// Whether `last` is already the last mark (it sits exactly on a multiple of 10 m).
    private var lastIsMark = false

    /// A resampler before the first point.
    public init() {}

    /// The resampled path so far: the marks, then the last point unless it is the last mark.
    /// Empty for no point; the point itself for one.
    public var path: ResampledPath {
        guard let last, !lastIsMark else { return marks }
        var p = marks
        p.append(last)
        return p
    }

    /// The cumulative geodesic length of the points fed, metres.
    public var lengthM: Double { length }

    /// Takes the next point.
    public mutating func add(_ c: Coordinate) {
        guard let p = last else {
            marks.append(c)
            last = c
            nextMark = 1
            lastIsMark = true
            return
        }
        let segment = Geodesic.distance(from: p, to: c)
        let end = length + segment
        var azimuth: Double?
        if segment > 0 { lastIsMark = false }
        while Double(nextMark) * Self.spacing <= end {
            let mark = Double(nextMark) * Self.spacing
            if mark == end {
                marks.append(c)
                lastIsMark = true
            } else {
                let az = azimuth ?? Geodesic.inverse(from: p, to: c).initialAzimuth
                azimuth = az
                marks.append(Geodesic.direct(from: p, azimuth: az, distance: mark - length))
            }
            nextMark += 1
        }
        length = end
        last = c
    }

    /// Takes the next points, in order.
    public mutating func add(contentsOf points: some Sequence<Coordinate>) {
        for c in points { add(c) }
    }

    /// Takes the next kept points, in order.
    public mutating func add(contentsOf points: some Sequence<TrackPoint>) {
        for p in points { add(p.coordinate) }
    }

    private static var spacing: Double { ResampledPath.spacing }
}
