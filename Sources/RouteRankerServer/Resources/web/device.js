// A phone's page, followed live.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { moment } from "./format.js";
import { liveControls } from "./live.js";
import { picture, repaint } from "./pictures.js";
import { statsList } from "./stats.js";

/// A phone's page: its counts, when it was last heard from, and the route it is recording,
/// followed live through that route's own stream. Counts of points that add nothing to a route
/// (duplicates, dropped, ignored) have no event, so the device is also asked again every few
/// seconds while the page is open; that is also how a new route is noticed.
export async function devicePage(id) {
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
