import Foundation

/// Reads a segment given as GeoJSON (RFC 7946): a `LineString` geometry, a `Feature` whose geometry
/// is one, or a `FeatureCollection` whose first `LineString` feature is taken. Positions are
/// `[lon, lat(, ele)]`; elevation is ignored.
public enum SegmentGeoJSON {
    /// The segment's points, in order; a `FormatError` says what is wrong.
    public static func read(_ data: Data) throws -> [Coordinate] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw failure("the segment is not a GeoJSON object")
        }
        guard let line = lineString(root) else {
            throw failure("the segment must be a GeoJSON LineString (or a Feature or FeatureCollection with one)")
        }
        guard let positions = line["coordinates"] as? [Any], positions.count >= 2 else {
            throw failure("a segment's LineString needs at least 2 positions")
        }
        return try positions.enumerated().map { index, value in
            guard let position = value as? [Any], position.count >= 2, let lon = number(position[0]),
                let lat = number(position[1]), (-90...90).contains(lat), (-180...180).contains(lon)
            else { throw FormatError.point(index, key: nil, "not [lon, lat] within range") }
            return Coordinate(lat: lat, lon: lon)
        }
    }

    private static func failure(_ message: String) -> FormatError {
        FormatError(field: "body", index: nil, key: nil, message: message)
    }

    private static func lineString(_ object: [String: Any]) -> [String: Any]? {
        switch object["type"] as? String {
        case "LineString": return object
        case "Feature": return (object["geometry"] as? [String: Any]).flatMap(lineString)
        case "FeatureCollection":
            return (object["features"] as? [Any] ?? []).lazy.compactMap { ($0 as? [String: Any]).flatMap(lineString) }
                .first
        default: return nil
        }
    }

    private static func number(_ value: Any) -> Double? {
        // JSONSerialization gives NSNumber (Bool too: refuse it); decimals go through their text.
        guard let n = value as? NSNumber, !(value is Bool) else { return nil }
        let d = n is NSDecimalNumber ? Double(n.description) ?? n.doubleValue : n.doubleValue
        return d.isFinite ? d : nil
    }
}
