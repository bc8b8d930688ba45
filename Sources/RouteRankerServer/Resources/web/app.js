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

function statsList(stats) {
  const item = (name, value) => el("div", {}, el("dt", {}, name), el("dd", {}, value));
  return el("dl", { class: "stats" },
    item("Distance", distance(stats.distance_m)), item("Time", duration(stats.duration_s)),
    item("Moving time", duration(stats.moving_time_s)), item("Pace", pace(stats.avg_pace_s_per_km)),
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
  const parts = [el("h1", {}, route.name),
    el("p", { class: "note" }, `${route.activity} · ${day(route.started_at)} · ${route.state}`),
    statsList(route.stats), picture(`${base}/map.svg?width=900`, "Map"), profileForm, profile];
  // Live following adds itself here for routes that are still recording.
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

// ---- Signing in and routing -----------------------------------------------------------------

function signIn() {
  document.getElementById("nav").hidden = true;
  document.getElementById("sign-out").hidden = true;
  show(document.getElementById("sign-in-template").content.cloneNode(true));
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

function signOut() {
  localStorage.removeItem(tokenKey);
  signIn();
}

async function route() {
  if (!localStorage.getItem(tokenKey)) return signIn();
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
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
