// My routes: sorted by a column, or near a place.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { day, distance, duration } from "./format.js";

export async function myRoutes() {
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
