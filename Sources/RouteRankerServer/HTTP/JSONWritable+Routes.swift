import Foundation
import RouteRankerCore
import RouteRankerModels

// The hot responses written directly (see `JSONWritable`); keys in sorted order. Tests check each
// against `JSONEncoder.api` byte for byte.

extension RouteSummary: JSONWritable {
    package func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("activity")
        w.string(activity.rawValue)
        if let annotations {
            w.comma()
            w.key("annotations")
            try w.array(annotations) { try $0.value($1) }
        }
        w.comma()
        w.key("created_at")
        w.date(createdAt)
        if let distanceFromM {
            w.comma()
            w.key("distance_from_m")
            try w.double(distanceFromM)
        }
        w.comma()
        w.key("ended_at")
        w.date(endedAt)
        w.comma()
        w.key("id")
        w.string(id)
        w.comma()
        w.key("name")
        w.string(name)
        w.comma()
        w.key("owner")
        w.string(owner)
        if let sharedWith {
            w.comma()
            w.key("shared_with")
            w.array(sharedWith) { $0.string($1) }
        }
        w.comma()
        w.key("started_at")
        w.date(startedAt)
        w.comma()
        w.key("state")
        w.string(state.rawValue)
        w.comma()
        w.key("stats")
        try w.value(stats)
        w.raw("}")
    }
}

extension Annotation: JSONWritable {
    package func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("lat")
        try w.double(lat)
        w.comma()
        w.key("lon")
        try w.double(lon)
        w.comma()
        w.key("t")
        try w.double(t)
        w.comma()
        w.key("text")
        w.string(text)
        w.raw("}")
    }
}

extension RouteStats: JSONWritable {
    package func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("avg_pace_s_per_km")
        try w.double(avgPaceSPerKm)
        w.comma()
        w.key("avg_speed_mps")
        try w.double(avgSpeedMps)
        w.comma()
        w.key("bbox")
        if let bbox {
            try w.array([bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat]) { try $0.double($1) }
        } else {
            w.null()
        }
        w.comma()
        w.key("distance_m")
        try w.double(distanceM)
        w.comma()
        w.key("duration_s")
        try w.double(durationS)
        w.comma()
        w.key("elevation_gain_m")
        try w.double(elevationGainM)
        w.comma()
        w.key("elevation_loss_m")
        try w.double(elevationLossM)
        w.comma()
        w.key("end")
        try Self.write(end, to: &w)
        w.comma()
        w.key("max_speed_mps")
        try w.double(maxSpeedMps)
        w.comma()
        w.key("moving_time_s")
        try w.double(movingTimeS)
        w.comma()
        w.key("params")
        w.raw("{")
        w.key("elevation_hysteresis_m")
        try w.double(params.elevationHysteresisM)
        w.comma()
        w.key("max_speed_mps")
        try w.double(params.maxSpeedMps)
        w.comma()
        w.key("moving_threshold_mps")
        try w.double(params.movingThresholdMps)
        w.raw("}")
        w.comma()
        w.key("points")
        w.int(points)
        w.comma()
        w.key("splits")
        try w.array(splits) { w, split in
            w.raw("{")
            w.key("km")
            w.int(split.km)
            w.comma()
            w.key("pace_s_per_km")
            try w.double(split.paceSPerKm)
            w.comma()
            w.key("time_s")
            try w.double(split.timeS)
            w.raw("}")
        }
        w.comma()
        w.key("start")
        try Self.write(start, to: &w)
        w.raw("}")
    }

    private static func write(_ endpoint: Endpoint?, to w: inout JSONWriter) throws {
        guard let endpoint else { return w.null() }
        w.raw("{")
        w.key("lat")
        try w.double(endpoint.lat)
        w.comma()
        w.key("lon")
        try w.double(endpoint.lon)
        w.comma()
        w.key("t")
        try w.double(endpoint.t)
        w.raw("}")
    }
}

extension InboxItem: JSONWritable {
    package func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("name")
        w.string(name)
        w.comma()
        w.key("owner")
        w.raw("{")
        w.key("id")
        w.string(owner.id)
        w.comma()
        w.key("name")
        w.string(owner.name)
        w.raw("}")
        w.comma()
        w.key("route")
        w.string(route)
        w.comma()
        w.key("shared_at")
        w.date(sharedAt)
        w.comma()
        w.key("stats")
        try w.value(stats)
        w.raw("}")
    }
}

extension AppendResult: JSONWritable {
    package func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("accepted")
        w.int(accepted)
        w.comma()
        w.key("dropped")
        w.int(dropped)
        w.comma()
        w.key("duplicates")
        w.int(duplicates)
        w.comma()
        w.key("stats")
        try w.value(stats)
        w.raw("}")
    }
}

extension Page: JSONWritable where Item: JSONWritable {
    func writeJSON(to w: inout JSONWriter) throws {
        w.raw("{")
        w.key("items")
        try w.array(items) { try $0.value($1) }
        w.comma()
        w.key("next")
        if let next { w.string(next) } else { w.null() }
        w.comma()
        w.key("total")
        w.int(total)
        w.raw("}")
    }
}
