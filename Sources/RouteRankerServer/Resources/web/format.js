// Formatting for people (as the server's link page does).

const two = (n) => String(n).padStart(2, "0");
export function duration(s) {
  if (s === null || s === undefined || !isFinite(s)) return "–";
  const t = Math.round(s), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}
export const distance = (m) => (m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(2)} km`);
export const pace = (s) => (s === null || s === undefined ? "–" : duration(s) + " /km");
export const day = (iso) => (iso ? iso.slice(0, 10) : "–");
/// A moment in the reader's own time zone, as their system writes dates and times.
export const moment = (iso) => (iso ? new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "medium" }) : "never");
// People's units: pace for those on foot, km/h for those on wheels.
export const onFoot = (activity) => activity === "run" || activity === "walk";
export const rate = (metres, seconds, activity) => (!(seconds > 0) ? "–" : onFoot(activity)
  ? duration(seconds / (metres / 1000)) + " /km" : (metres / seconds * 3.6).toFixed(1) + " km/h");
/// An effort's time with its milliseconds when under ten minutes (a 400 m is won by tenths).
export function effortTime(s) {
  if (s >= 600) return duration(s);
  const whole = Math.floor(s), m = Math.floor(whole / 60);
  return `${m}:${two(whole % 60)}.${String(Math.round((s - whole) * 1000)).padStart(3, "0").slice(0, 1)}`;
}
const distanceNames = {
  "400m": "400 m", half_mile: "½ mile", "1k": "1 km", "1_mile": "1 mile", "2_mile": "2 miles", "5k": "5 km",
  "10k": "10 km", "15k": "15 km", "10_mile": "10 miles", "20k": "20 km", half_marathon: "Half marathon",
  "30k": "30 km", "40k": "40 km", marathon: "Marathon", "50k": "50 km", "80k": "80 km", "100k": "100 km",
  "100_mile": "100 miles", "200k": "200 km",
};
export const distanceName = (key) => distanceNames[key] || key;
export const ordinal = (n) => ["1st", "2nd", "3rd"][n - 1];
export const metricFormat = {
  duration_s: duration, moving_time_s: duration, avg_pace_s_per_km: pace,
  avg_speed_mps: (v) => (v * 3.6).toFixed(1) + " km/h", distance_m: distance,
};
export const metricNames = {
  duration_s: "Duration", moving_time_s: "Moving time", avg_pace_s_per_km: "Pace",
  avg_speed_mps: "Average speed", distance_m: "Distance",
};

export const speed = (mps) => (mps === null || mps === undefined ? "–" : (mps * 3.6).toFixed(1) + " km/h");
