/// Writes GPX 1.1 in pieces, so that a long route can be streamed bucket by bucket:
/// ``header()``, then ``chunk(_:)`` for each run of points, then ``footer()``.
///
/// The route is one `trk` with one `trkseg`; annotations become `wpt`s (they must come before
/// the track in GPX 1.1). Times are RFC 3339 UTC with at least milliseconds; numbers are plain
/// decimals (`xsd:decimal` has no exponent). `acc` has no place in GPX 1.1 and is left out.
public struct GPXWriter: Sendable {
    /// The route's name, written as `metadata/name` and `trk/name`.
    public var name: String?
    /// The annotations, written as waypoints.
    public var annotations: [Annotation]

    /// A writer for a route with this name and these (already privacy-filtered) annotations.
    public init(name: String?, annotations: [Annotation] = []) {
        self.name = name
        self.annotations = annotations
    }

    /// The XML declaration, metadata, waypoints and the opening of the track.
    public func header() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"RouteRanker\" xmlns=\"http://www.topografix.com/GPX/1/1\""
        out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        out += " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
        if let name { out += "<metadata><name>\(XMLText.escape(name))</name></metadata>\n" }
        for a in annotations {
            out += "<wpt lat=\"\(DecimalNumbers.format(a.lat))\" lon=\"\(DecimalNumbers.format(a.lon))\">"
            if let t = a.t { out += "<time>\(RFC3339.format(t))</time>" }
            out += "<name>\(XMLText.escape(a.text))</name></wpt>\n"
        }
        out += "<trk>"
        if let name { out += "<name>\(XMLText.escape(name))</name>" }
        return out + "<trkseg>\n"
    }

    /// The `trkpt` elements of `points`.
    public func chunk(_ points: some Sequence<TrackPoint>) -> String {
        var out: [UInt8] = []
        chunk(points, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``chunk(_:)`` of `points` to `out` as UTF-8 bytes (a download writes bytes; a
    /// `String` per point was most of a GPX download's CPU).
    public func chunk(_ points: some Sequence<TrackPoint>, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + points.underestimatedCount * 100)
        for p in points {
            out.append(literal: "<trkpt lat=\"")
            DecimalNumbers.append(p.lat, to: &out)
            out.append(literal: "\" lon=\"")
            DecimalNumbers.append(p.lon, to: &out)
            out.append(literal: "\">")
            if let ele = p.ele {
                out.append(literal: "<ele>")
                DecimalNumbers.append(ele, to: &out)
                out.append(literal: "</ele>")
            }
            out.append(literal: "<time>")
            RFC3339.append(p.t, to: &out)
            out.append(literal: "</time></trkpt>\n")
        }
    }

    /// Closes the track and the document.
    public func footer() -> String {
        "</trkseg></trk>\n</gpx>\n"
    }
}
