/// What one message of a tracker app (OwnTracks, Traccar Client, GPSLogger) says, once read:
/// the server decides from this alone how the message counts (API.md, "Recording from the apps
/// people already have").
public enum TrackerReport: Sendable, Equatable {
    /// A position with a time, in range: a candidate for the device's route.
    case point(TrackPoint)
    /// A location message whose position or time cannot be used (out of range, missing): the
    /// message is still answered `200`, so that the phone's queue moves on, and counted as dropped.
    case unusable
    /// A message with no position at all (a heartbeat, a waypoint, a status…): counted as ignored.
    case nothing
}

/// The OwnTracks message is end-to-end encrypted with a key the server does not hold (`422`).
public struct TrackerMessageEncrypted: Error, Sendable, Equatable {
    public init() {}
}

extension TrackerReport {
    /// The report for raw values as a tracker sent them: a point when the position is in range and
    /// the time is valid (`PointValidation`'s rules), `unusable` otherwise. An elevation outside
    /// `PointValidation.elevationRange` (not a number, infinite, past −12 km or 100 km) and an
    /// accuracy that is not a number or negative are left out rather than costing the point: the
    /// apps send placeholders for "unknown". An accuracy above `PointValidation.accuracyRange`
    /// (infinite included) is a point the ingest rules would drop as inaccurate anyway: `unusable`.
    /// Either way the message is answered `200`, and no value outside the ranges is stored.
    public static func location(lat: Double?, lon: Double?, t: Double?, ele: Double?, acc: Double?) -> TrackerReport {
        guard let lat, lat.isFinite, (-90...90).contains(lat), let lon, lon.isFinite, (-180...180).contains(lon),
            let t, PointValidation.isValidTime(t)
        else { return .unusable }
        if let acc, acc > PointValidation.accuracyRange.upperBound { return .unusable }
        let ele = ele.flatMap { PointValidation.elevationRange.contains($0) ? $0 : nil }
        let acc = acc.flatMap { PointValidation.accuracyRange.contains($0) ? $0 : nil }
        return .point(TrackPoint(lat: lat, lon: lon, t: t, ele: ele, acc: acc))
    }
}
