// RouteRanker's web app: plain JavaScript over the public API, no build step, nothing from
// another origin. Every text from the server is set with textContent (never as markup); the
// server's SVG pictures are parsed as XML and imported, so nothing in them can run.
"use strict";

const tokenKey = "routeranker.token";
const view = () => document.getElementById("view");

// ---- The API -------------------------------------------------------------------------------

async function api(path, options = {}) {
  const headers = { Authorization: "Bearer " + localStorage.getItem(tokenKey), ...(options.headers || {}) };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options.method || "GET", headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (response.status === 401) { signOut(); throw new Error("Please sign in again."); }
  if (options.raw) {
    if (!response.ok) throw new Error("The server answered " + response.status + ".");
    return response.text();
  }
  const body = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error((body && body.error && body.error.message) || "The server answered " + response.status + ".");
  return body;
}

// ---- Formatting for people (as the server's link page does) ---------------------------------

const two = (n) => String(n).padStart(2, "0");
function duration(s) {
  if (s === null || s === undefined || !isFinite(s)) return "–";
  const t = Math.round(s), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}
const distance = (m) => (m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(2)} km`);
const pace = (s) => (s === null || s === undefined ? "–" : duration(s) + " /km");
const day = (iso) => (iso ? iso.slice(0, 10) : "–");
/// A moment in the reader's own time zone, as their system writes dates and times.
const moment = (iso) => (iso ? new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "medium" }) : "never");
// People's units: pace for those on foot, km/h for those on wheels.
const onFoot = (activity) => activity === "run" || activity === "walk";
const rate = (metres, seconds, activity) => (!(seconds > 0) ? "–" : onFoot(activity)
  ? duration(seconds / (metres / 1000)) + " /km" : (metres / seconds * 3.6).toFixed(1) + " km/h");
/// An effort's time with its milliseconds when under ten minutes (a 400 m is won by tenths).
function effortTime(s) {
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
const distanceName = (key) => distanceNames[key] || key;
const ordinal = (n) => ["1st", "2nd", "3rd"][n - 1];
const metricFormat = {
  duration_s: duration, moving_time_s: duration, avg_pace_s_per_km: pace,
  avg_speed_mps: (v) => (v * 3.6).toFixed(1) + " km/h", distance_m: distance,
};
const metricNames = {
  duration_s: "Duration", moving_time_s: "Moving time", avg_pace_s_per_km: "Pace",
  avg_speed_mps: "Average speed", distance_m: "Distance",
};

// ---- Building the page ----------------------------------------------------------------------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function show(...nodes) {
  view().replaceChildren(...nodes);
  const heading = view().querySelector("h1");
  document.title = (heading ? heading.textContent + " · " : "") + "RouteRanker";
}

function failure(error) { show(el("h1", {}, "Something went wrong"), el("p", { class: "error", role: "alert" }, error.message)); }

/// An SVG picture from the API, fetched with the token, parsed as XML and imported.
function picture(path, label) {
  const holder = el("figure", { class: "picture", "aria-label": label }, el("p", { class: "note" }, "Drawing…"));
  api(path, { raw: true }).then((text) => {
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("not a picture");
    holder.replaceChildren(document.importNode(svg, true));
  }).catch((error) => holder.replaceChildren(el("p", { class: "error" }, error.message)));
  return holder;
}

/// Draws a fresh copy of an SVG picture into an existing holder (keeping the old one until the
/// new one is there). Calls made while one is in flight are folded into one more draw after it.
function repaint(holder, pathOf) {
  if (holder.busy) { holder.again = true; return; }
  holder.busy = true;
  api(pathOf(), { raw: true }).then((text) => {
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (svg.nodeName === "svg") holder.replaceChildren(document.importNode(svg, true));
  }).catch(() => {}).finally(() => {
    holder.busy = false;
    if (holder.again) { holder.again = false; repaint(holder, pathOf); }
  });
}

function statsList(stats, activity) {
  const item = (name, value) => el("div", {}, el("dt", {}, name), el("dd", {}, value));
  return el("dl", { class: "stats", id: "route-stats" },
    item("Distance", distance(stats.distance_m)), item("Time", duration(stats.duration_s)),
    item("Moving time", duration(stats.moving_time_s)),
    onFoot(activity) ? item("Pace", pace(stats.avg_pace_s_per_km))
      : item("Average speed", (stats.avg_speed_mps * 3.6).toFixed(1) + " km/h"),
    item("Elevation gain", stats.elevation_gain_m === null ? "–" : Math.round(stats.elevation_gain_m) + " m"),
    item("Points", stats.points));
}

// ---- Sections -------------------------------------------------------------------------------
// Each section is a hash route (#/name/arg) and a function that shows it. Live following and
// leaderboards register theirs here.

const sections = {
  routes: myRoutes,
  inbox: inbox,
  route: routePage,
  groups: groups,
  compare: compare,
  segments: mySegments,
  segment: segmentPage,
  records: recordsPage,
  upload: uploadPage,
  import: importPage,
  account: accountPage,
  device: devicePage,
};

async function myRoutes() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const sort = params.get("sort") || "-started_at";
  const near = params.get("near");
  const query = near ? `near=${encodeURIComponent(near)}&radius_m=${encodeURIComponent(params.get("radius_m") || "5000")}`
    : `sort=${encodeURIComponent(sort)}`;
  const page = await api(`/v1/routes?limit=100&${query}`);
  const sortButton = (key, label, numeric) => {
    const active = sort.replace("-", "") === key && !near;
    const next = active && !sort.startsWith("-") ? "-" + key : key;
    return el("th", { class: numeric ? "num" : "", "aria-sort": active ? (sort.startsWith("-") ? "descending" : "ascending") : "none" },
      el("button", { type: "button", onclick: () => { location.hash = `#/routes?sort=${next}`; } }, label));
  };
  const nearForm = el("form", { id: "near-form", onsubmit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    location.hash = `#/routes?near=${encodeURIComponent(data.get("near"))}&radius_m=${encodeURIComponent(data.get("radius"))}`;
  } },
    el("label", {}, "Near (lat,lon)", el("input", { name: "near", value: near || "", placeholder: "48.137,11.575", required: true })),
    el("label", {}, "Within (m)", el("input", { name: "radius", type: "number", min: "0", value: params.get("radius_m") || "5000" })),
    el("button", { type: "submit" }, "Search near"));
  const rows = page.items.map((route) => el("tr", {},
    el("td", {}, el("a", { href: `#/route/${route.id}` }, route.name)),
    el("td", {}, day(route.started_at)),
    el("td", { class: "num" }, distance(route.stats.distance_m)),
    el("td", { class: "num" }, duration(route.stats.duration_s)),
    near ? el("td", { class: "num" }, distance(route.distance_from_m || 0)) : null));
  show(el("h1", {}, near ? "Routes near " + near : "My routes"), nearForm,
    el("table", {}, el("thead", {}, el("tr", {}, sortButton("name", "Name"), sortButton("started_at", "Date"),
      sortButton("distance_m", "Distance", true), sortButton("duration_s", "Time", true),
      near ? el("th", { class: "num" }, "Away") : null)), el("tbody", {}, rows)),
    el("p", { class: "note" }, `${page.total} routes.`));
}

async function inbox() {
  const page = await api("/v1/shares?limit=100");
  show(el("h1", {}, "Shared with me"),
    page.items.length === 0 ? el("p", { class: "note" }, "Nothing has been shared with you yet.") :
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Route"), el("th", {}, "From"), el("th", {}, "Shared"),
      el("th", { class: "num" }, "Distance"))),
    el("tbody", {}, page.items.map((item) => el("tr", {},
      el("td", {}, el("a", { href: `#/route/${item.route}` }, item.name)), el("td", {}, item.owner.name),
      el("td", {}, day(item.shared_at)), el("td", { class: "num" }, distance(item.stats.distance_m)))))));
}

async function routePage(id) {
  const [route, me] = await Promise.all([api(`/v1/routes/${encodeURIComponent(id)}`), api("/v1/users/me")]);
  const base = `/v1/routes/${encodeURIComponent(id)}`;
  let profile = picture(`${base}/profile.svg?width=900`, "Profile");
  const redraw = () => {
    const data = new FormData(profileForm);
    const next = picture(`${base}/profile.svg?width=900&y=${data.get("y")}&x=${data.get("x")}`, "Profile");
    profile.replaceWith(next);
    profile = next;
  };
  const profileForm = el("form", { id: "profile-form", onchange: redraw, onsubmit: (event) => { event.preventDefault(); redraw(); } },
    el("label", {}, "Profile of", el("select", { name: "y" },
      el("option", { value: "elevation" }, "Elevation"), el("option", { value: "speed" }, "Speed"),
      el("option", { value: "pace" }, "Pace"))),
    el("label", {}, "against", el("select", { name: "x" },
      el("option", { value: "distance" }, "Distance"), el("option", { value: "time" }, "Time"))));
  const note = el("p", { class: "note", id: "route-note" }, `${route.activity} · ${day(route.started_at)} · ${route.state}`);
  const stats = statsList(route.stats, route.activity);
  // Over the operator's map tiles when the server has some (the plain map otherwise).
  const map = picture(`${base}/map.svg?width=900&tiles=true`, "Map");
  const parts = [el("h1", {}, route.name), note, stats, map, profileForm, profile];
  if (route.state === "recording") {
    // Follow the recording: new stats at once, the map and the profile redrawn after each append.
    // (In place: the first event can come before the page is shown.)
    const update = (summaryStats, state) => {
      stats.replaceChildren(...statsList(summaryStats, route.activity).childNodes);
      if (state) note.textContent = `${route.activity} · ${day(route.started_at)} · ${state}`;
      repaint(map, () => `${base}/map.svg?width=900&tiles=true`);
      const data = new FormData(profileForm);
      repaint(profile, () => `${base}/profile.svg?width=900&y=${data.get("y")}&x=${data.get("x")}`);
    };
    parts.splice(2, 0, liveControls(`${base}/live`, update));
  } else {
    parts.push(el("h2", {}, "Best efforts"), bestEfforts(route, base),
      el("h2", {}, "Segments"), routeLeaderboards(route, base));
  }
  if (route.owner === me.id) {
    const message = el("p", { role: "status" });
    const friends = await api("/v1/friends?limit=200");
    parts.push(el("h2", {}, "Share"),
      el("form", { id: "share-form", onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api(`${base}/shares`, { method: "POST", body: { to: new FormData(event.target).get("to") } });
          message.textContent = "Shared.";
        } catch (error) { message.textContent = error.message; }
      } },
        el("label", {}, "Friend", el("select", { name: "to", required: true },
          friends.items.map((f) => el("option", { value: f.id }, `${f.name} (${f.id})`)))),
        el("button", { type: "submit" }, "Share with friend")),
      el("form", { id: "link-form", onsubmit: async (event) => {
        event.preventDefault();
        try {
          const link = await api(`${base}/links`, { method: "POST", body: {} });
          message.replaceChildren("Link made: ", el("a", { href: link.page_url }, location.origin + link.page_url),
            ` (until ${day(link.expires_at)})`);
        } catch (error) { message.textContent = error.message; }
      } }, el("button", { type: "submit" }, "Make a link")),
      message);
  }
  show(...parts);
}

// ---- Live following -------------------------------------------------------------------------
// EventSource cannot send the Authorization header, so the stream is read with fetch() and the
// Server-Sent Events are parsed here; a dropped stream is resumed with Last-Event-ID.

let stopLive = null;  // ends the stream of the page being left

function liveControls(path, update) {
  const status = el("span", { id: "live-status", class: "live-badge" }, "Connecting…");
  const button = el("button", { type: "button", id: "live-toggle" }, "Stop following");
  let controller = null, lastID = null, done = false, retry = 1000;

  const setStatus = (text, kind) => { status.textContent = text; status.dataset.state = kind; };
  const dispatch = (event, data) => {
    if (event === "points") {
      const body = JSON.parse(data);
      update(body.stats, null);
      setStatus("Live", "live");
    } else if (event === "finished") {
      done = true;
      const summary = JSON.parse(data);
      update(summary.stats, summary.state);
      setStatus("Finished", "finished");
      button.hidden = true;
    } else if (event === "gone") {
      done = true;
      setStatus("Gone: deleted, or no longer shared with you", "gone");
      button.hidden = true;
    }
  };

  async function follow() {
    controller = new AbortController();
    const headers = { Authorization: "Bearer " + localStorage.getItem(tokenKey), Accept: "text/event-stream" };
    if (lastID !== null) headers["Last-Event-ID"] = lastID;
    try {
      const response = await fetch(path, { headers, signal: controller.signal, cache: "no-store" });
      if (response.status === 401 || response.status === 404 || response.status === 403) {
        done = true;
        setStatus(response.status === 401 ? "Please sign in again." : "Gone: deleted, or no longer shared with you", "gone");
        button.hidden = true;
        return;
      }
      // A Last-Event-ID the server no longer takes (the privacy view changed): start over.
      if (response.status === 400) lastID = null;
      if (!response.ok || !response.body) throw new Error("answer " + response.status);
      setStatus("Live", "live");
      retry = 1000;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "", event = "", data = [];
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split(/\r\n|\r|\n/);
        buffer = lines.pop();  // an unfinished line waits for the next chunk
        for (const line of lines) {
          if (line === "") {
            if (data.length > 0 || event) dispatch(event || "message", data.join("\n"));
            event = ""; data = [];
            if (done) { controller.abort(); return; }
            continue;
          }
          if (line.startsWith(":")) continue;  // a comment (keep-alive)
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
          else if (field === "id" && !value.includes("\0")) lastID = value;
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;  // stopped by the page
    }
    if (done || controller.signal.aborted) return;
    // The stream ended without finished or gone: come back where we left off.
    setStatus("Reconnecting…", "waiting");
    setTimeout(() => { if (!done && !controller.signal.aborted) follow(); }, retry);
    retry = Math.min(retry * 2, 15000);
  }

  const stop = () => { if (controller) controller.abort(); };
  button.addEventListener("click", () => {
    if (controller && !controller.signal.aborted) {
      stop();
      setStatus("Not following", "stopped");
      button.textContent = "Follow live";
    } else {
      button.textContent = "Stop following";
      setStatus("Connecting…", "waiting");
      follow();
    }
  });
  if (stopLive) stopLive();
  stopLive = stop;
  follow();
  return el("div", { class: "live", role: "status" }, status, " ", button);
}

// ---- Segments and leaderboards --------------------------------------------------------------

const speed = (mps) => (mps === null || mps === undefined ? "–" : (mps * 3.6).toFixed(1) + " km/h");

function leaderboardTable(board, highlight) {
  if (board.items.length === 0) return el("p", { class: "note" }, "No efforts you can see yet.");
  return el("table", { class: "leaderboard" },
    el("thead", {}, el("tr", {}, el("th", { class: "num" }, "Rank"), el("th", {}, "Name"), el("th", { class: "num" }, "Time"),
      el("th", { class: "num" }, "Speed"), el("th", { class: "num" }, "Attempts"), el("th", {}, "Date"))),
    el("tbody", {}, board.items.map((item) => el("tr", { class: item.user.id === highlight ? "me" : "" },
      el("td", { class: "num" }, item.rank), el("td", {}, item.user.name),
      el("td", { class: "num" }, el("a", { href: `#/route/${encodeURIComponent(item.route)}` }, duration(item.elapsed_s))),
      el("td", { class: "num" }, speed(item.avg_speed_mps)), el("td", { class: "num" }, item.attempts),
      el("td", {}, day(item.started_at))))));
}

/// The leaderboards of the segments this route holds an effort on: the segments whose start lies
/// within the route's length of its first point, kept when the owner's efforts include this route.
/// The route's best efforts with PR badges (1st, 2nd, 3rd of the owner's efforts at that distance).
function bestEfforts(route, base) {
  const holder = el("div", { id: "best-efforts" }, el("p", { class: "note" }, "Reading best efforts…"));
  api(`${base}/best_efforts`).then((result) => {
    if (result.items.length === 0) {
      holder.replaceChildren(el("p", { class: "note" }, onFoot(route.activity) || route.activity === "ride"
        ? "This route is shorter than the shortest standard distance." : `A ${route.activity} has no standard distances.`));
      return;
    }
    holder.replaceChildren(el("table", { class: "best-efforts" },
      el("thead", {}, el("tr", {}, el("th", {}, "Distance"), el("th", { class: "num" }, "Time"),
        el("th", { class: "num" }, onFoot(route.activity) ? "Pace" : "Speed"), el("th", {}, "Record"))),
      el("tbody", {}, result.items.map((e) => el("tr", { "data-distance": e.distance },
        el("td", {}, el("a", { href: `#/records?activity=${route.activity}&distance=${e.distance}` }, distanceName(e.distance))),
        el("td", { class: "num" }, effortTime(e.elapsed_s)),
        el("td", { class: "num" }, rate(e.distance_m, e.elapsed_s, route.activity)),
        el("td", {}, e.pr_rank ? el("span", { class: `pr pr-${e.pr_rank}`, title: `Your ${ordinal(e.pr_rank)} fastest` },
          `PR ${ordinal(e.pr_rank)}`) : ""))))));
  }).catch((error) => holder.replaceChildren(el("p", { class: "error" }, error.message)));
  return holder;
}

/// My records for an activity, each distance's progression and the friends' ranking, and the
/// training log by week, month or year in this browser's time zone.
async function recordsPage() {
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

function routeLeaderboards(route, base) {
  const holder = el("div", { id: "route-segments" }, el("p", { class: "note" }, "Looking for segments…"));
  (async () => {
    const points = (await api(`${base}/points?format=json`)).points;
    if (points.length === 0) { holder.replaceChildren(el("p", { class: "note" }, "No points, so no segments.")); return; }
    const radius = Math.min(50000, Math.max(1000, Math.ceil((route.stats.distance_m || 0) + 100)));
    const near = await api(`/v1/segments?near=${points[0].lat},${points[0].lon}&radius_m=${radius}&limit=200`);
    const held = [];
    await Promise.all(near.items.map(async (segment) => {
      const efforts = await api(`/v1/segments/${encodeURIComponent(segment.id)}/efforts?user=${encodeURIComponent(route.owner)}&limit=200`);
      const mine = efforts.items.filter((e) => e.route === route.id);
      if (mine.length > 0) held.push({ segment, mine, board: await api(`/v1/segments/${encodeURIComponent(segment.id)}/leaderboard?limit=50`) });
    }));
    if (held.length === 0) { holder.replaceChildren(el("p", { class: "note" }, "This route runs along no segment.")); return; }
    held.sort((a, b) => near.items.indexOf(a.segment) - near.items.indexOf(b.segment));
    holder.replaceChildren(...held.map(({ segment, mine, board }) => el("section", { class: "segment-board", "data-segment": segment.id },
      el("h3", {}, el("a", { href: `#/segment/${encodeURIComponent(segment.id)}` }, segment.name)),
      el("p", { class: "note" }, `${distance(segment.length_m)} · this route: ` +
        mine.map((e) => `${duration(e.elapsed_s)} (rank ${e.rank} of your efforts)`).join(", ")),
      leaderboardTable(board, route.owner))));
  })().catch((error) => holder.replaceChildren(el("p", { class: "error" }, error.message)));
  return holder;
}

async function mySegments() {
  const page = await api("/v1/segments?limit=200");
  show(el("h1", {}, "My segments"),
    page.items.length === 0 ? el("p", { class: "note" }, "You have no segments yet.") :
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Segment"), el("th", { class: "num" }, "Length"), el("th", {}, "Made"))),
      el("tbody", {}, page.items.map((s) => el("tr", {},
        el("td", {}, el("a", { href: `#/segment/${encodeURIComponent(s.id)}` }, s.name)),
        el("td", { class: "num" }, distance(s.length_m)), el("td", {}, day(s.created_at)))))),
    el("p", { class: "note" }, `${page.total} segments.`));
}

async function segmentPage(id) {
  const path = `/v1/segments/${encodeURIComponent(id)}`;
  const [segment, board, me] = await Promise.all([api(path), api(`${path}/leaderboard?limit=200`), api("/v1/users/me")]);
  show(el("h1", {}, segment.name),
    el("p", { class: "note" }, `${distance(segment.length_m)} · by ${segment.owner} · ${board.total} people`),
    el("h2", {}, "Leaderboard"), leaderboardTable(board, me.id));
}

async function groups() {
  const page = await api("/v1/groups?limit=200");
  const mine = await api("/v1/routes?limit=200");
  const message = el("p", { role: "status" });
  show(el("h1", {}, "Groups"),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Group"), el("th", { class: "num" }, "Routes"))),
      el("tbody", {}, page.items.map((g) => el("tr", {}, el("td", {}, g.name), el("td", { class: "num" }, g.routes.length))))),
    el("h2", {}, "New group"),
    el("form", { id: "group-form", onsubmit: async (event) => {
      event.preventDefault();
      const data = new FormData(event.target);
      try {
        await api("/v1/groups", { method: "POST", body: { name: data.get("name"), routes: data.getAll("routes") } });
        await groups();
      } catch (error) { message.textContent = error.message; }
    } },
      el("label", {}, "Name", el("input", { name: "name", required: true })),
      el("fieldset", {}, el("legend", {}, "Routes"), mine.items.map((r) =>
        el("label", {}, el("span", {}, el("input", { type: "checkbox", name: "routes", value: r.id }), " ", r.name)))),
      el("button", { type: "submit" }, "Create group")),
    message);
}

async function compare() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const chosen = (params.get("groups") || "").split(",").filter(Boolean);
  const metric = params.get("metric") || "duration_s";
  const page = await api("/v1/groups?limit=200");
  const form = el("form", { id: "compare-form", onsubmit: (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    location.hash = `#/compare?groups=${data.getAll("groups").map(encodeURIComponent).join(",")}&metric=${data.get("metric")}`;
  } },
    el("fieldset", {}, el("legend", {}, "Groups"), page.items.map((g) => el("label", {}, el("span", {},
      el("input", { type: "checkbox", name: "groups", value: g.id, checked: chosen.includes(g.id) }), " ", g.name)))),
    el("label", {}, "Metric", el("select", { name: "metric" }, Object.entries(metricNames).map(([key, name]) =>
      el("option", { value: key, selected: key === metric }, name)))),
    el("button", { type: "submit" }, "Compare"));
  const parts = [el("h1", {}, "Compare groups"), form];
  if (chosen.length >= 2) {
    const query = `groups=${chosen.map(encodeURIComponent).join(",")}&metric=${metric}`;
    const result = await api(`/v1/compare?${query}`);
    const byID = Object.fromEntries(result.groups.map((g) => [g.id, g]));
    const format = metricFormat[metric];
    const fmt = (v) => (v === null ? "–" : format(v));
    parts.push(picture(`/v1/compare.svg?${query}&width=900`, "Comparison chart"),
      el("table", { id: "compare-table" }, el("thead", {}, el("tr", {}, el("th", {}, "Rank"), el("th", {}, "Group"),
        el("th", { class: "num" }, "Routes"), el("th", { class: "num" }, "Mean"), el("th", { class: "num" }, "Median"),
        el("th", { class: "num" }, "Best"), el("th", { class: "num" }, "Worst"))),
      el("tbody", {}, result.ranking.map((id, i) => { const g = byID[id]; return el("tr", {},
        el("td", {}, i + 1), el("td", {}, g.name), el("td", { class: "num" }, g.count), el("td", { class: "num" }, fmt(g.mean)),
        el("td", { class: "num" }, fmt(g.median)),
        el("td", { class: "num" }, fmt(result.metric === "avg_speed_mps" || result.metric === "distance_m" ? g.max : g.min)),
        el("td", { class: "num" }, fmt(result.metric === "avg_speed_mps" || result.metric === "distance_m" ? g.min : g.max))); }))),
      el("h2", {}, "Welch's t-test"),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Pair"), el("th", { class: "num" }, "Difference of means"),
        el("th", { class: "num" }, "t"), el("th", { class: "num" }, "p"))),
      el("tbody", {}, result.pairs.map((p) => el("tr", {}, el("td", {}, `${byID[p.a].name} – ${byID[p.b].name}`),
        el("td", { class: "num" }, p.mean_diff === null ? "–" : (p.mean_diff < 0 ? "−" : "") + format(Math.abs(p.mean_diff))),
        el("td", { class: "num" }, p.t === null ? "–" : p.t.toFixed(2)),
        el("td", { class: "num" }, p.p_value === null ? "–" : p.p_value < 0.001 ? "< 0.001" : p.p_value.toFixed(3)))))));
  } else {
    parts.push(el("p", { class: "note" }, "Pick at least two groups."));
  }
  show(...parts);
}

// ---- Upload, import, account ------------------------------------------------------------------

/// The Content-Type of a route file, from its name (the server decides what it accepts).
function uploadType(name) {
  const lower = name.toLowerCase();
  const types = { ".gpx": "application/gpx+xml", ".fit": "application/vnd.ant.fit", ".tcx": "application/vnd.garmin.tcx+xml",
    ".ndjson": "application/x-ndjson", ".json": "application/json", ".txt": "text/plain" };
  const found = Object.keys(types).find((ext) => lower.endsWith(ext));
  return found ? types[found] : null;
}

/// Sends `body` with XMLHttpRequest, whose upload events give a real progress bar; resolves with
/// the status and the parsed JSON answer.
function send(method, path, body, type, bar) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.setRequestHeader("Authorization", "Bearer " + localStorage.getItem(tokenKey));
    if (type) request.setRequestHeader("Content-Type", type);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) { bar.max = event.total; bar.value = event.loaded; }
    });
    request.addEventListener("load", () => {
      let answer = null;
      try { answer = request.responseText ? JSON.parse(request.responseText) : null; } catch { answer = null; }
      resolve({ status: request.status, body: answer });
    });
    request.addEventListener("error", () => reject(new Error("The connection failed; try again.")));
    request.send(body);
  });
}

async function uploadPage() {
  const rows = el("tbody", { id: "upload-rows" });
  const upload = async (files) => {
    for (const file of files) {
      const bar = el("progress", { max: 1, value: 0, "aria-label": `Uploading ${file.name}` });
      const result = el("td", { class: "result" }, "Uploading…");
      rows.append(el("tr", { "data-file": file.name }, el("td", {}, file.name), el("td", {}, bar), result));
      const type = uploadType(file.name);
      if (!type) { result.textContent = "Not a route file this server reads (GPX, FIT, TCX, JSON, NDJSON or text)."; continue; }
      const name = encodeURIComponent(file.name.replace(/\.[^.]+$/, ""));
      // The file's name names the route when the file has none (GPX without a name, NDJSON, text);
      // FIT and TCX files name themselves after their sport and date.
      const named = ["application/gpx+xml", "application/x-ndjson", "text/plain"].includes(type);
      const path = named ? `/v1/routes?name=${name}` : "/v1/routes";
      try {
        const answer = await send("POST", path, file, type, bar);
        bar.value = bar.max;
        if (answer.status === 201) {
          result.replaceChildren("Uploaded: ", el("a", { href: `#/route/${answer.body.id}` }, answer.body.name),
            ` · ${distance(answer.body.stats.distance_m)}`);
        } else {
          result.replaceChildren(el("span", { class: "error" },
            (answer.body && answer.body.error && answer.body.error.message) || `The server answered ${answer.status}.`));
        }
      } catch (error) { result.replaceChildren(el("span", { class: "error" }, error.message)); }
    }
  };
  const input = el("input", { type: "file", id: "upload-files", multiple: true,
    accept: ".gpx,.fit,.tcx,.json,.ndjson,.txt", onchange: (event) => upload([...event.target.files]) });
  const drop = el("div", { class: "drop", id: "drop-zone",
    ondragover: (event) => { event.preventDefault(); drop.classList.add("over"); },
    ondragleave: () => drop.classList.remove("over"),
    ondrop: (event) => { event.preventDefault(); drop.classList.remove("over"); upload([...event.dataTransfer.files]); } },
    el("p", {}, "Drop route files here, or pick them:"), el("label", { class: "button" }, "Upload routes", input));
  show(el("h1", {}, "Upload"),
    el("p", {}, "GPX, FIT and TCX files from your watch or bike computer, or JSON, NDJSON and text files. Several at once."),
    drop,
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "File"), el("th", {}, "Progress"), el("th", {}, "Result"))), rows),
    el("h2", {}, "Moving from Strava?"),
    el("p", {}, "Bring all your activities at once: ", el("a", { href: "#/import" }, "import your Strava archive"), "."));
}

async function importPage(id) {
  if (id) return importProgress(id);
  const list = await api("/v1/imports?limit=20");
  const bar = el("progress", { max: 1, value: 0, id: "import-upload", "aria-label": "Uploading the archive" });
  const message = el("p", { role: "status", id: "import-status" });
  const input = el("input", { type: "file", id: "import-file", accept: ".zip,application/zip", onchange: async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    message.textContent = `Uploading ${file.name}…`;
    try {
      const answer = await send("POST", "/v1/imports", file, "application/zip", bar);
      if (answer.status === 202) location.hash = `#/import/${answer.body.id}`;
      else message.textContent = (answer.body && answer.body.error && answer.body.error.message) || `The server answered ${answer.status}.`;
    } catch (error) { message.textContent = error.message; }
  } });
  show(el("h1", {}, "Import from Strava"),
    el("p", {}, "On Strava: Settings → My Account → Download or Delete Your Account → Request your archive. " +
      "Upload the zip you get here (up to 4 GiB); GPX, FIT and TCX files in it become your routes, named as on Strava."),
    el("label", { class: "button" }, "Import an archive", input), " (a .zip)", bar, message,
    el("h2", {}, "Earlier imports"),
    list.items.length === 0 ? el("p", { class: "note" }, "None yet.") :
    el("ul", {}, list.items.map((job) => el("li", {}, el("a", { href: `#/import/${job.id}` }, `${day(job.created_at)} · ${job.state}`),
      ` · ${job.counts.imported} imported`))));
}

/// An import's progress bar, following the job until it is done, then its per-file table.
async function importProgress(id) {
  const bar = el("progress", { id: "import-progress", max: 1, value: 0, "aria-label": "Import progress" });
  const status = el("p", { role: "status", id: "import-state" });
  const table = el("div", { id: "import-files" });
  show(el("h1", {}, "Import"), bar, status, table);
  let job;
  for (;;) {
    job = await api(`/v1/imports/${encodeURIComponent(id)}`);
    bar.max = job.files_total || 1;
    bar.value = job.files_done;
    status.textContent = job.state === "queued" ? "Waiting for its turn…" :
      `${job.files_done} of ${job.files_total ?? "?"} files · ${job.counts.imported} imported, ` +
      `${job.counts.duplicates} already here, ${job.counts.failed} failed, ${job.counts.skipped} skipped` +
      (job.state === "failed" ? ` · failed: ${job.error}` : job.state === "done" ? " · done" : "");
    if (job.state === "done" || job.state === "failed" || !location.hash.startsWith("#/import/")) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const files = await api(`/v1/imports/${encodeURIComponent(id)}/files?limit=200`);
  const words = { imported: "imported", duplicate: "already here", failed: "failed", skipped: "skipped" };
  table.replaceChildren(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "File"), el("th", {}, "Result"))),
    el("tbody", {}, files.items.map((f) => el("tr", { "data-status": f.status }, el("td", {}, f.file),
      el("td", {}, f.route ? el("a", { href: `#/route/${f.route}` }, words[f.status]) : words[f.status],
        f.error ? el("span", { class: "error" }, ` — ${f.error.message}`) : null))))),
    files.next ? el("p", { class: "note" }, `The first 200 of ${files.total} files.`) : "");
}

async function accountPage() {
  const [me, devices, zones] = await Promise.all([api("/v1/users/me"), api("/v1/devices"), api("/v1/users/me/privacy_zones")]);
  const message = el("p", { role: "status", id: "account-status" });
  const say = (text) => { message.textContent = text; };
  const profile = el("form", { id: "profile-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const friends = String(data.get("friends")).split(/[\s,]+/).filter(Boolean);
    try { await api("/v1/users/me", { method: "PATCH", body: { name: data.get("name"), friends } }); say("Saved."); }
    catch (error) { say(error.message); }
  } },
    el("label", {}, "Name", el("input", { name: "name", value: me.name, required: true, maxlength: "200" })),
    el("label", {}, "Friends (ids, separated by commas)", el("input", { name: "friends", value: me.friends.join(", "), size: "40" })),
    el("button", { type: "submit" }, "Save"));

  const zoneRows = el("tbody", { id: "zone-rows" });
  const zoneRow = (z) => el("tr", {},
    el("td", {}, el("input", { name: "lat", type: "number", step: "any", min: "-90", max: "90", value: z.lat, required: true, "aria-label": "Latitude" })),
    el("td", {}, el("input", { name: "lon", type: "number", step: "any", min: "-180", max: "180", value: z.lon, required: true, "aria-label": "Longitude" })),
    el("td", {}, el("input", { name: "radius_m", type: "number", min: "100", max: "2000", value: z.radius_m, required: true, "aria-label": "Radius in metres" })),
    el("td", {}, el("button", { type: "button", onclick: (event) => event.target.closest("tr").remove() }, "Remove")));
  zoneRows.append(...zones.map(zoneRow));
  const zoneForm = el("form", { id: "zones-form", onsubmit: async (event) => {
    event.preventDefault();
    const list = [...zoneRows.querySelectorAll("tr")].map((row) => ({
      lat: Number(row.querySelector("[name=lat]").value), lon: Number(row.querySelector("[name=lon]").value),
      radius_m: Number(row.querySelector("[name=radius_m]").value) }));
    try { await api("/v1/users/me/privacy_zones", { method: "PUT", body: list }); say("Privacy zones saved."); }
    catch (error) { say(error.message); }
  } },
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Latitude"), el("th", {}, "Longitude"), el("th", {}, "Radius (m)"), el("th", {}, ""))), zoneRows),
    el("button", { type: "button", onclick: () => zoneRows.append(zoneRow({ lat: "", lon: "", radius_m: 200 })) }, "Add a zone"),
    el("button", { type: "submit" }, "Save zones"));

  const deviceList = el("ul", { id: "device-list" }, devices.items.map((d) => el("li", {},
    el("a", { href: `#/device/${encodeURIComponent(d.id)}` }, d.name),
    ` · ${d.activity} · ${d.counts.recorded} points recorded · last seen ${moment(d.last_seen_at)}`,
    d.current_route ? el("span", {}, " · ", el("a", { href: `#/route/${d.current_route}` }, "recording now")) : null)));
  const connect = el("div", { id: "connect" });
  const deviceForm = el("form", { id: "device-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    try {
      const device = await api("/v1/devices", { method: "POST", body: { name: data.get("name"), activity: data.get("activity") } });
      connect.replaceChildren(...phoneSettings(device, me.id),
        el("p", {}, el("a", { href: `#/device/${encodeURIComponent(device.id)}`, id: "device-page-link" },
          `Watch ${device.name} record`), " once the app is set up."));
    } catch (error) { say(error.message); }
  } },
    el("label", {}, "Phone's name", el("input", { name: "name", required: true, value: "My phone" })),
    el("label", {}, "Records", el("select", { name: "activity" }, ["walk", "run", "ride", "drive", "other"].map((a) => el("option", { value: a }, a)))),
    el("button", { type: "submit" }, "Connect a phone"));

  const exportButton = el("button", { type: "button", id: "export", onclick: async () => {
    say("Preparing your archive…");
    try {
      const response = await fetch("/v1/users/me/export", { headers: { Authorization: "Bearer " + localStorage.getItem(tokenKey) } });
      if (!response.ok) throw new Error(`The server answered ${response.status}.`);
      const url = URL.createObjectURL(await response.blob());
      const link = el("a", { href: url, download: `routeranker-${me.id}.zip` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      say("Downloaded.");
    } catch (error) { say(error.message); }
  } }, "Download everything (zip)");

  const deleteForm = el("form", { id: "delete-form", onsubmit: async (event) => {
    event.preventDefault();
    const typed = new FormData(event.target).get("confirm");
    if (typed !== me.id) { say(`Type your id, ${me.id}, to confirm.`); return; }
    try {
      await api(`/v1/users/me?confirm=${encodeURIComponent(typed)}`, { method: "DELETE" });
      localStorage.removeItem(tokenKey);
      location.hash = "#/";
      signIn();
    } catch (error) { say(error.message); }
  } },
    el("label", {}, "Type your id to confirm",
      el("input", { name: "confirm", autocomplete: "off", required: true, "aria-describedby": "delete-hint" })),
    el("button", { type: "submit", class: "danger" }, "Delete my account"));

  show(el("h1", {}, "Account"), message,
    el("h2", {}, "You"), el("p", { class: "note" }, `Your id: ${me.id}`), profile,
    el("h2", {}, "Privacy zones"),
    el("p", {}, "Points within these circles (your home, say) are hidden from everyone but you."), zoneForm,
    el("h2", {}, "Phones"), deviceList, deviceForm, connect,
    el("h2", {}, "Token"),
    el("p", {}, "Make a new token if yours may have leaked; the old one stops working at once."),
    el("button", { type: "button", id: "rotate-token", onclick: async () => {
      try {
        const answer = await api("/v1/users/me/token", { method: "POST" });
        localStorage.setItem(tokenKey, answer.token);
        showToken(answer.token);
      } catch (error) { say(error.message); }
    } }, "Make a new token"),
    el("h2", {}, "Your data"), exportButton,
    el("h2", {}, "Leave"),
    el("p", { id: "delete-hint" }, `Deleting your account removes it and everything in it — routes, shares, links, `
      + `groups, segments, phones — for good. Your id is ${me.id}.`), deleteForm);
}

/// A phone's page: its counts, when it was last heard from, and the route it is recording,
/// followed live through that route's own stream. Counts of points that add nothing to a route
/// (duplicates, dropped, ignored) have no event, so the device is also asked again every few
/// seconds while the page is open; that is also how a new route is noticed.
async function devicePage(id) {
  const path = `/v1/devices/${encodeURIComponent(id)}`;
  const device = await api(path);
  const facts = el("dl", { class: "stats", id: "device-counts" });
  const current = el("section", { id: "device-route", "aria-label": "Current route" });
  let following;  // the route shown, or null: none yet
  const showFacts = (d) => {
    const item = (name, value) => el("div", { "data-count": name, class: name === "Last seen" ? "wide" : "" },
      el("dt", {}, name), el("dd", {}, value));
    facts.replaceChildren(item("Received", d.counts.received), item("Recorded", d.counts.recorded),
      item("Duplicates", d.counts.duplicates), item("Dropped", d.counts.dropped), item("Ignored", d.counts.ignored),
      item("Last seen", moment(d.last_seen_at)));
  };
  const follow = async (routeID) => {
    following = routeID;
    if (!routeID) {
      current.replaceChildren(el("h2", {}, "Not recording"),
        el("p", { class: "note" }, "The phone's next point starts a route, shown here as it records."));
      return;
    }
    const base = `/v1/routes/${encodeURIComponent(routeID)}`;
    const route = await api(base);
    const stats = statsList(route.stats, route.activity);
    const map = picture(`${base}/map.svg?width=900&tiles=true`, "Map of the current route");
    const update = (summaryStats) => {
      stats.replaceChildren(...statsList(summaryStats, route.activity).childNodes);
      repaint(map, () => `${base}/map.svg?width=900&tiles=true`);
      refresh();
    };
    current.replaceChildren(el("h2", {}, "Recording: ", el("a", { href: `#/route/${encodeURIComponent(routeID)}`, id: "device-route-link" }, route.name)),
      liveControls(`${base}/live`, update), stats, map);
  };
  let asking = false;
  const refresh = async () => {
    if (asking) return;
    asking = true;
    try {
      const d = await api(path);
      showFacts(d);
      if (d.current_route !== following) await follow(d.current_route);
    } catch { /* shown again at the next ask */ } finally { asking = false; }
  };
  const timer = setInterval(() => {
    // The page was left: stop asking.
    if (!document.body.contains(facts)) clearInterval(timer); else refresh();
  }, 3000);
  showFacts(device);
  await follow(device.current_route);
  show(el("h1", {}, device.name), el("p", { class: "note" }, `Records ${device.activity} · connected ${moment(device.created_at)}`),
    facts, current, el("p", {}, el("a", { href: "#/account" }, "All phones and their settings")));
}

/// The server's QR code for setting up `app` with this device: the key goes in the request's body
/// (never in a URL), and the picture is imported as the other pictures are.
function qrCode(device, app, label) {
  const holder = el("figure", { class: "qr", "data-app": app, "aria-label": label }, el("p", { class: "note" }, "Drawing the code…"));
  fetch(`/v1/devices/${encodeURIComponent(device.id)}/qr.svg`, {
    method: "POST", headers: { Authorization: "Bearer " + localStorage.getItem(tokenKey), "Content-Type": "application/json" },
    body: JSON.stringify({ app, key: device.key }),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`The server answered ${response.status}.`);
    const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("not a picture");
    holder.replaceChildren(document.importNode(svg, true), el("figcaption", {}, label));
  }).catch((error) => holder.replaceChildren(el("p", { class: "error" }, error.message)));
  return holder;
}

/// What to type into each tracker app, with the app's own setting names (the key is shown once),
/// and a QR code each app (or the phone's camera) can scan instead.
function phoneSettings(device, user) {
  const row = (name, value) => el("tr", {}, el("th", {}, name), el("td", {}, el("code", {}, value)));
  const table = (...rows) => el("table", { class: "settings" }, el("tbody", {}, rows));
  return [
    el("p", {}, el("strong", {}, "Shown once: "), "this page is the only time the device key is shown. Set up the app now."),
    el("h3", {}, "OwnTracks (iPhone, Android)"),
    el("p", {}, "Preferences → Connection:"),
    table(row("Mode", "HTTP"), row("URL", device.ingest.owntracks), row("Authentication", "on"),
      row("User ID / Username", user), row("Password", device.key), row("Device ID", device.name)),
    qrCode(device, "owntracks", "Scan with the phone's camera: OwnTracks opens and sets itself up"),
    el("h3", {}, "Traccar Client"),
    table(row("Server URL", device.ingest.osmand), row("Device identifier", device.key), row("Location accuracy", "high")),
    qrCode(device, "osmand", "Scan in Traccar Client (the QR button on its settings screen)"),
    el("h3", {}, "GPSLogger (Android)"),
    el("p", {}, "Logging details → Log to custom URL:"),
    table(row("URL", device.ingest.gpslogger), row("HTTP Method", "GET")),
    qrCode(device, "gpslogger", "Scan with any scanner and paste the text into the URL setting"),
  ];
}

// ---- Signing in and routing -----------------------------------------------------------------

function signIn() {
  document.getElementById("nav").hidden = true;
  document.getElementById("sign-out").hidden = true;
  show(document.getElementById("sign-in-template").content.cloneNode(true));
  document.getElementById("sign-up-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const error = document.getElementById("sign-up-error");
    try {
      const response = await fetch("/v1/users", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: data.get("id"), name: data.get("name"), friends: [] }) });
      const body = await response.json();
      if (!response.ok) { error.textContent = body.error.message; return; }
      localStorage.setItem(tokenKey, body.token);
      showToken(body.token);
    } catch (failure) { error.textContent = failure.message; }
  });
  document.getElementById("sign-in-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem(tokenKey, document.getElementById("token").value.trim());
    try {
      await api("/v1/users/me");
      if (!location.hash || location.hash === "#/signin") location.hash = "#/routes"; else route();
    } catch (error) {
      localStorage.removeItem(tokenKey);
      document.getElementById("sign-in-error").textContent = "That token does not work.";
    }
  });
}

/// The token, shown once (after signing up or making a new one), with a copy button.
function showToken(token) {
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
  show(document.getElementById("token-template").content.cloneNode(true));
  document.getElementById("new-token").textContent = token;
  document.getElementById("copy-token").addEventListener("click", async () => {
    const status = document.getElementById("copy-status");
    try { await navigator.clipboard.writeText(token); status.textContent = "Copied."; }
    catch { status.textContent = "Select the token and copy it by hand."; }
  });
}

function signOut() {
  localStorage.removeItem(tokenKey);
  signIn();
}

async function route() {
  if (!localStorage.getItem(tokenKey)) return signIn();
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
  if (stopLive) { stopLive(); stopLive = null; }
  const [name, arg] = location.hash.replace(/^#\//, "").split("?")[0].split("/");
  const section = sections[name] ? name : "routes";
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.getAttribute("href") === "#/" + section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  try {
    await sections[section](arg && decodeURIComponent(arg));
    document.getElementById("main").focus({ preventScroll: true });
  } catch (error) { failure(error); }
}

window.addEventListener("hashchange", route);
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("sign-out").addEventListener("click", signOut);
  route();
});
