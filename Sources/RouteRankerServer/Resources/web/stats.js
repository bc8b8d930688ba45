// A route's stats, as the route and device pages show them.
import { el } from "./dom.js";
import { distance, duration, onFoot, pace } from "./format.js";

export function statsList(stats, activity) {
  const item = (name, value) => el("div", {}, el("dt", {}, name), el("dd", {}, value));
  return el("dl", { class: "stats", id: "route-stats" },
    item("Distance", distance(stats.distance_m)), item("Time", duration(stats.duration_s)),
    item("Moving time", duration(stats.moving_time_s)),
    onFoot(activity) ? item("Pace", pace(stats.avg_pace_s_per_km))
      : item("Average speed", (stats.avg_speed_mps * 3.6).toFixed(1) + " km/h"),
    item("Elevation gain", stats.elevation_gain_m === null ? "–" : Math.round(stats.elevation_gain_m) + " m"),
    item("Points", stats.points));
}
