/// A route's ingest filter and running statistics: everything an append needs, in a small
/// `Codable` value the server keeps in the route document and feeds batch after batch.
///
/// Points go through ``ingest(_:)`` one at a time in the order given (sort JSON and GPX bodies
/// with ``TrackPoint/sortedByTime(_:)`` first; streams are taken as they arrive). The state
/// after a point depends only on the state before it and the point, and every field is a
/// plain number or array that JSON and BSON store exactly, so any split of a route into
/// batches — with the state saved and loaded between them — gives bit-identical ``stats``.
///
/// The state grows with the route only in ``splits`` (one `Double` per kilometre); the
/// max-speed window stays at ~two 10 s spans of points (see ``MaxSpeedWindow``).
public struct StatsAccumulator: Sendable, Hashable, Codable {
    /// The activity whose parameters apply; change it with ``changeActivity(to:keptPoints:)``.
    public private(set) var activity: Activity
    /// Spike drops since the last kept point (0…2); the third spike in a row is kept.
    public private(set) var spikeRun = 0
    /// Kept points so far.
    public private(set) var count = 0
    /// The first kept point.
    public private(set) var first: TrackPoint?
    /// The last kept point: the filter's reference and the start of the next segment.
    public private(set) var last: TrackPoint?
    /// Sum of segment lengths, metres.
    public private(set) var distance = 0.0
    /// Sum of Δt over moving segments, seconds.
    public private(set) var movingTime = 0.0
    /// Hysteresis state, nil until a point has `ele`.
    public private(set) var elevation: ElevationState?
    /// Bounding box of the kept points.
    public private(set) var bbox: BoundingBox?
    /// The max-speed window.
    public private(set) var window = MaxSpeedWindow()
    /// Seconds per completed kilometre.
    public private(set) var splits: [Double] = []
    /// The time at the last kilometre boundary (the first point's `t` before the first one).
    public private(set) var boundaryTime = 0.0

    /// An accumulator for a new, empty route.
    public init(activity: Activity) {
        self.activity = activity
    }

    /// An accumulator restored from its fields exactly as a previous one held them (storage reads
    /// them back one by one); no check that they belong together.
    public init(
        restoring activity: Activity, spikeRun: Int, count: Int, first: TrackPoint?, last: TrackPoint?,
        distance: Double, movingTime: Double, elevation: ElevationState?, bbox: BoundingBox?,
        window: MaxSpeedWindow, splits: [Double], boundaryTime: Double
    ) {
        self.activity = activity
        self.spikeRun = spikeRun
        self.count = count
        self.first = first
        self.last = last
        self.distance = distance
        self.movingTime = movingTime
        self.elevation = elevation
        self.bbox = bbox
        self.window = window
        self.splits = splits
        self.boundaryTime = boundaryTime
    }

    /// Elevation gain and loss with hysteresis around a reference level.
    public struct ElevationState: Sendable, Hashable, Codable {
        /// The level last moved to (starts at the first `ele`).
        public var reference: Double
        /// Total gain, metres.
        public var gain = 0.0
        /// Total loss, metres.
        public var loss = 0.0

        /// A state with these values.
        public init(reference: Double, gain: Double = 0, loss: Double = 0) {
            self.reference = reference
            self.gain = gain
            self.loss = loss
        }
    }

    /// Filters a batch per API.md's ingest rules and adds the kept points to the statistics.
    ///
    /// Per point, in this order: a `t` not after the last kept point's is a duplicate; `acc`
    /// over 50 m is dropped; a speed from the last kept point strictly above the activity's
    /// maximum is a spike and dropped, unless two spikes in a row were just dropped, in which
    /// case it is kept and becomes the new reference. The first point is never a spike.
    public mutating func ingest(_ points: some Sequence<TrackPoint>) -> IngestResult {
        var result = IngestResult()
        for p in points {
            if let last, !(p.t > last.t) {
                result.duplicates += 1
                continue
            }
            if let acc = p.acc, acc > Activity.maxAccuracy {
                result.dropped += 1
                continue
            }
            var step = 0.0
            if let last {
                step = Geodesic.distance(from: last.coordinate, to: p.coordinate)
                if spikeRun < 2 && step / (p.t - last.t) > activity.maxSpeed {
                    spikeRun += 1
                    result.dropped += 1
                    continue
                }
            }
            spikeRun = 0
            append(p, step: step)
            result.kept.append(p)
        }
        return result
    }

    /// The statistics of the kept points, as API.md defines them.
    public var stats: RouteStats {
        guard let first, let last else { return .empty(activity: activity) }
        return RouteStats(
            points: count, distanceM: distance, durationS: last.t - first.t, movingTimeS: movingTime,
            avgSpeedMps: movingTime > 0 ? distance / movingTime : 0,
            avgPaceSPerKm: movingTime > 0 && distance > 0 ? movingTime / (distance / 1000) : nil,
            maxSpeedMps: window.best, elevationGainM: elevation?.gain, elevationLossM: elevation?.loss, bbox: bbox,
            start: RouteStats.Endpoint(first), end: RouteStats.Endpoint(last),
            splits: splits.enumerated().map { RouteStats.Split(km: $0.offset + 1, timeS: $0.element) },
            params: activity.parameters)
    }

    /// An accumulator holding `keptPoints` — points that already passed the filter, in order —
    /// without filtering them again (e.g. after a change of activity). `spikeRun` carries the
    /// filter's count of spikes dropped since the last of them. Points whose `t` is not after
    /// the previous one's are skipped, as they could not have been kept.
    public static func rebuilding(
        activity: Activity, keptPoints: some Sequence<TrackPoint>, spikeRun: Int = 0
    ) -> StatsAccumulator {
        var acc = StatsAccumulator(activity: activity)
        for p in keptPoints {
            var step = 0.0
            if let last = acc.last {
                guard p.t > last.t else { continue }
                step = Geodesic.distance(from: last.coordinate, to: p.coordinate)
            }
            acc.append(p, step: step)
        }
        acc.spikeRun = spikeRun
        return acc
    }

    /// `PATCH` of the activity: recomputes the stats over the kept points with the new
    /// parameters; dropped points stay dropped (they are not in `keptPoints`), the spike count
    /// since the last kept point carries over, and later batches use the new maximum speed.
    public mutating func changeActivity(to newActivity: Activity, keptPoints: some Sequence<TrackPoint>) {
        self = Self.rebuilding(activity: newActivity, keptPoints: keptPoints, spikeRun: spikeRun)
    }

    /// Adds a kept point whose distance from the previous kept point is `step`.
    private mutating func append(_ p: TrackPoint, step: Double) {
        count += 1
        if let last {
            let dt = p.t - last.t
            let before = distance
            distance += step
            if step / dt >= activity.movingThreshold { movingTime += dt }
            addSplits(from: before, last.t, to: distance, p.t)
            bbox?.extend(p)
        } else {
            first = p
            bbox = BoundingBox(p)
            boundaryTime = p.t
        }
        window.add(t: p.t, d: distance)
        if let ele = p.ele { addElevation(ele) }
        last = p
    }

    /// Records every kilometre boundary in (d0, d1], its time interpolated linearly along distance.
    mutating func addSplits(from d0: Double, _ t0: Double, to d1: Double, _ t1: Double) {
        while true {
            let boundary = Double(splits.count + 1) * 1000
            guard d1 >= boundary else { return }
            // Exactly on the boundary: the point's own time, not a rounded interpolation of it.
            let t = d1 == boundary ? t1 : t0 + (boundary - d0) / (d1 - d0) * (t1 - t0)
            splits.append(t - boundaryTime)
            boundaryTime = t
        }
    }

    /// API.md's hysteresis: move the reference (and count the change) on a change of ≥ 5 m.
    private mutating func addElevation(_ ele: Double) {
        guard var e = elevation else {
            elevation = ElevationState(reference: ele)
            return
        }
        if ele - e.reference >= Activity.elevationHysteresis {
            e.gain += ele - e.reference
            e.reference = ele
        } else if e.reference - ele >= Activity.elevationHysteresis {
            e.loss += e.reference - ele
            e.reference = ele
        }
        elevation = e
    }
}

/// What one batch did: API.md's `accepted`, `duplicates` and `dropped`, and the kept points
/// (in order) for the server to store.
public struct IngestResult: Sendable, Hashable {
    /// The points kept, in order; `accepted` is their count.
    public var kept: [TrackPoint] = []
    /// Points whose `t` was not after the last kept point's.
    public var duplicates = 0
    /// Accuracy drops and spike drops.
    public var dropped = 0

    /// An empty result.
    public init() {}

    /// Kept points.
    public var accepted: Int { kept.count }

    /// Adds another batch's counts and points (for a stream fed in chunks).
    public mutating func merge(_ other: IngestResult) {
        kept += other.kept
        duplicates += other.duplicates
        dropped += other.dropped
    }
}
