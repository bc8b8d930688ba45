// A route's page: stats, map and profile, followed live while it records; else its best efforts and
// the leaderboards of the segments it runs along. Its owner shares it from here.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { day, distance, distanceName, duration, effortTime, onFoot, ordinal, rate } from "./format.js";
import { leaderboardTable } from "./leaderboard.js";
import { liveControls } from "./live.js";
import { picture, repaint } from "./pictures.js";
import { statsList } from "./stats.js";

export async function routePage(id) {
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

/// The leaderboards of the segments this route holds an effort on: the segments whose start lies
/// within the route's length of its first point, kept when the owner's efforts include this route.
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
