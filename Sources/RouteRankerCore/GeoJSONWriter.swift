/// Writes a route as a GeoJSON Feature (RFC 7946): a LineString of `[lon, lat]` or
/// `[lon, lat, ele]` positions and `properties.coordTimes`, RFC 3339 strings parallel to them.
///
/// Streams like the other writers (``header()``, ``chunk(_:)``, ``footer()``), but since the
/// times follow all coordinates, it keeps each point's `t` (8 bytes a point, 8 MB at the
/// 1,000,000-point cap) and writes them in the footer.
public struct GeoJSONWriter: Sendable {
    /// The route's name, as `properties.name`.
    public var name: String?
    private var times: [Double] = []

    /// A writer for a route with this name.
    public init(name: String?) {
        self.name = name
    }

    /// The opening of the Feature and its coordinates array.
    public func header() -> String {
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
    }

    /// The positions of `points`.
    public mutating func chunk(_ points: some Sequence<TrackPoint>) -> String {
        var out = ""
        for p in points {
            if !times.isEmpty { out += "," }
            times.append(p.t)
            out += "["
            DecimalNumbers.append(p.lon, to: &out)
            out += ","
            DecimalNumbers.append(p.lat, to: &out)
            if let ele = p.ele {
                out += ","
                DecimalNumbers.append(ele, to: &out)
            }
            out += "]"
        }
        return out
    }

    /// Closes the geometry and writes the properties with the times.
    public func footer() -> String {
        var out = "]},\"properties\":{"
        if let name { out += "\"name\":\(JSONPoints.string(name))," }
        out += "\"coordTimes\":["
        for (i, t) in times.enumerated() {
            if i > 0 { out += "," }
            out += "\""
            RFC3339.append(t, to: &out)
            out += "\""
        }
        return out + "]}}\n"
    }
}

/// Writes `text/csv`: the header `lat,lon,t,ele`, LF line ends, an empty `ele` when absent.
public enum CSVPointWriter {
    /// The header line.
    public static let header = "lat,lon,t,ele\n"

    /// The rows of `points`.
    public static func rows(_ points: some Sequence<TrackPoint>) -> String {
        var out = ""
        for p in points {
            DecimalNumbers.append(p.lat, to: &out)
            out += ","
            DecimalNumbers.append(p.lon, to: &out)
            out += ","
            DecimalNumbers.append(p.t, to: &out)
            out += ","
            if let ele = p.ele { DecimalNumbers.append(ele, to: &out) }
            out += "\n"
        }
        return out
    }
}
