extension RouteStats {
    /// Whether every number of these stats is finite, so that JSON can encode them. The ranges of
    /// `PointValidation` make it so for any route of at most `RouteIngest.maxPoints` points; a
    /// writer checks it before committing anyway, so that no route whose stats cannot be answered
    /// is ever stored (API.md: a request that fails changes nothing).
    public var isFinite: Bool {
        let figures: [Double?] = [
            distanceM, durationS, movingTimeS, avgSpeedMps, avgPaceSPerKm, maxSpeedMps, elevationGainM, elevationLossM,
            bbox?.minLon, bbox?.minLat, bbox?.maxLon, bbox?.maxLat, start?.lat, start?.lon, start?.t, end?.lat,
            end?.lon, end?.t, params.maxSpeedMps, params.movingThresholdMps, params.elevationHysteresisM,
        ]
        return figures.allSatisfy { $0?.isFinite ?? true }
            && splits.allSatisfy { $0.timeS.isFinite && $0.paceSPerKm.isFinite }
    }
}
