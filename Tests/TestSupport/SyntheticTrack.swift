import RouteRankerCore

/// Synthetic tracks with known times, for the segment tests of Core and of the server.
public enum SyntheticTrack {
    /// A point every second at `speed` m/s along legs (azimuth in degrees, metres), from `from`
    /// at `t0`; each leg ends exactly at its length (its last step may be shorter).
    public static func walk(
        _ legs: [(azimuth: Double, metres: Double)], from: Coordinate, speed: Double, t0: Double
    ) -> [TrackPoint] {
        var here = from
        var points = [TrackPoint(lat: here.lat, lon: here.lon, t: t0)]
        for leg in legs {
            var done = 0.0
            while done < leg.metres - 1e-9 {
                let step = min(speed, leg.metres - done)
                here = Geodesic.direct(from: here, azimuth: leg.azimuth, distance: step)
                done += step
                points.append(TrackPoint(lat: here.lat, lon: here.lon, t: points[points.count - 1].t + 1))
            }
        }
        return points
    }
}
