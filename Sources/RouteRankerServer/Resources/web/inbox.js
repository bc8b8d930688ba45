// The inbox: routes friends shared with me.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { day, distance } from "./format.js";

export async function inbox() {
  const page = await api("/v1/shares?limit=100");
  show(el("h1", {}, "Shared with me"),
    page.items.length === 0 ? el("p", { class: "note" }, "Nothing has been shared with you yet.") :
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Route"), el("th", {}, "From"), el("th", {}, "Shared"),
      el("th", { class: "num" }, "Distance"))),
    el("tbody", {}, page.items.map((item) => el("tr", {},
      el("td", {}, el("a", { href: `#/route/${item.route}` }, item.name)), el("td", {}, item.owner.name),
      el("td", {}, day(item.shared_at)), el("td", { class: "num" }, distance(item.stats.distance_m)))))));
}
