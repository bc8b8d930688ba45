// Comparing groups: the chart, the ranking and Welch's t-test of each pair.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { metricFormat, metricNames } from "./format.js";
import { picture } from "./pictures.js";

export async function compare() {
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
