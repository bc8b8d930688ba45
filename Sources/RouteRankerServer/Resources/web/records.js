// Records: mine per distance, how each came down, the friends' ranking, and the training log.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { day, distance, distanceName, duration, effortTime, onFoot, rate } from "./format.js";
import { picture } from "./pictures.js";

/// My records for an activity, each distance's progression and the friends' ranking, and the
/// training log by week, month or year in this browser's time zone.
export async function recordsPage() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const activity = ["run", "walk", "ride"].includes(params.get("activity")) ? params.get("activity") : "run";
  const period = ["week", "month", "year"].includes(params.get("period")) ? params.get("period") : "week";
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const [records, log] = await Promise.all([
    api(`/v1/users/me/records?activity=${activity}`),
    api(`/v1/users/me/log?period=${period}&tz=${encodeURIComponent(tz)}`).catch(() =>
      api(`/v1/users/me/log?period=${period}`)),
  ]);
  const chosen = records.items.some((r) => r.distance === params.get("distance")) ? params.get("distance")
    : (records.items[0] || {}).distance;
  const link = (changes) => {
    const next = new URLSearchParams({ activity, period, ...(chosen ? { distance: chosen } : {}), ...changes });
    return `#/records?${next}`;
  };
  const switcher = (name, values, current) => el("nav", { class: "switch", "aria-label": name },
    values.map((v) => el("a", { href: link({ [name]: v }), "aria-current": v === current ? "page" : false }, v)));
  const parts = [el("h1", {}, "Records"), switcher("activity", ["run", "walk", "ride"], activity)];
  if (records.items.length === 0) {
    parts.push(el("p", { class: "note" }, `No ${activity} records yet: finish a ${activity} and its best efforts show here.`));
  } else {
    parts.push(el("table", { id: "records" },
      el("thead", {}, el("tr", {}, el("th", {}, "Distance"), el("th", { class: "num" }, "Best"),
        el("th", { class: "num" }, onFoot(activity) ? "Pace" : "Speed"), el("th", {}, "When"), el("th", {}, "Route"))),
      el("tbody", {}, records.items.map((r) => el("tr", { "data-distance": r.distance, class: r.distance === chosen ? "me" : "" },
        el("td", {}, el("a", { href: link({ distance: r.distance }) }, distanceName(r.distance))),
        el("td", { class: "num" }, effortTime(r.elapsed_s)),
        el("td", { class: "num" }, rate(r.distance_m, r.elapsed_s, activity)),
        el("td", {}, day(r.achieved_at)),
        el("td", {}, el("a", { href: `#/route/${r.route}` }, "route")))))));
    const [progression, ranking] = await Promise.all([
      api(`/v1/users/me/records/${chosen}?activity=${activity}`),
      api(`/v1/records/${chosen}?activity=${activity}&limit=50`),
    ]);
    const me = (await api("/v1/users/me")).id;
    parts.push(el("h2", {}, `${distanceName(chosen)}: how my record came down`), progressionChart(progression.items),
      el("h2", {}, `${distanceName(chosen)}: friends`),
      el("table", { id: "records-ranking", class: "leaderboard" },
        el("thead", {}, el("tr", {}, el("th", { class: "num" }, "Rank"), el("th", {}, "Who"),
          el("th", { class: "num" }, "Time"), el("th", {}, "When"))),
        el("tbody", {}, ranking.items.map((r) => el("tr", { class: r.user.id === me ? "me" : "" },
          el("td", { class: "num" }, r.rank), el("td", {}, r.user.name),
          el("td", { class: "num" }, el("a", { href: `#/route/${r.route}` }, effortTime(r.elapsed_s))),
          el("td", {}, day(r.achieved_at)))))));
  }
  parts.push(el("h2", {}, "Training log"), switcher("period", ["week", "month", "year"], period),
    picture(`/v1/users/me/log.svg?period=${period}&tz=${encodeURIComponent(log.tz)}&width=900`, "Training log"),
    el("table", { id: "training-log" },
      el("thead", {}, el("tr", {}, el("th", {}, period[0].toUpperCase() + period.slice(1)), el("th", { class: "num" }, "Routes"),
        el("th", { class: "num" }, "Distance"), el("th", { class: "num" }, "Moving time"), el("th", { class: "num" }, "Climb"))),
      el("tbody", {}, log.items.slice().reverse().map((i) => el("tr", {}, el("td", {}, i.key),
        el("td", { class: "num" }, i.count), el("td", { class: "num" }, distance(i.distance_m)),
        el("td", { class: "num" }, duration(i.moving_time_s)),
        el("td", { class: "num" }, Math.round(i.elevation_gain_m) + " m"))))),
    el("p", { class: "note" }, `Periods in ${log.tz}.`));
  show(...parts);
}

/// A record's progression as a step chart drawn here (time of the record against the date).
function progressionChart(items) {
  if (items.length === 0) return el("p", { class: "note" }, "No efforts yet.");
  // SVG's namespace, as the HTML parser gives it to an <svg> (no URL written here).
  const probe = document.createElement("div");
  probe.innerHTML = "<svg></svg>";
  const ns = probe.firstChild.namespaceURI;
  const svg = (tag, attributes, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const width = 900, height = 220, left = 70, right = 20, top = 16, bottom = 36;
  const times = items.map((i) => Date.parse(i.achieved_at)), values = items.map((i) => i.elapsed_s);
  const now = Math.max(Date.now(), times[times.length - 1] + 1);
  const t0 = times[0], t1 = items.length > 1 ? now : t0 + 86400000;
  const v0 = Math.min(...values), v1 = Math.max(...values);
  const pad = (v1 - v0) * 0.1 || v0 * 0.05 || 1;
  const x = (t) => left + (t - t0) / (t1 - t0) * (width - left - right);
  const y = (v) => top + (v1 + pad - v) / ((v1 + pad) - (v0 - pad)) * (height - top - bottom);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", id: "progression-chart" });
  root.append(svg("title", {}, "How the record came down"));
  let d = "";
  items.forEach((item, i) => {
    const px = x(times[i]), py = y(values[i]);
    d += i === 0 ? `M${px},${py}` : `H${px}V${py}`;
  });
  d += `H${x(t1)}`;
  root.append(svg("path", { d, fill: "none", stroke: "#c2410c", "stroke-width": 2.5, class: "progression" }));
  items.forEach((item, i) => root.append(svg("circle", { cx: x(times[i]), cy: y(values[i]), r: 4, fill: "#c2410c" },
  )));
  for (const v of [v0, v1]) root.append(svg("text", { x: left - 8, y: y(v) + 4, "text-anchor": "end", "font-size": 12, fill: "#475569" }, effortTime(v)));
  root.append(svg("text", { x: left, y: height - 10, "font-size": 12, fill: "#475569" }, day(items[0].achieved_at)));
  root.append(svg("text", { x: width - right, y: height - 10, "text-anchor": "end", "font-size": 12, fill: "#475569" },
    day(items[items.length - 1].achieved_at)));
  return el("figure", { class: "picture" }, root);
}
