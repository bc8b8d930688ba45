// My segments, and a segment's page with its leaderboard.
import { api } from "./api.js";
import { el, show } from "./dom.js";
import { day, distance } from "./format.js";
import { leaderboardTable } from "./leaderboard.js";

export async function mySegments() {
  const page = await api("/v1/segments?limit=200");
  show(el("h1", {}, "My segments"),
    page.items.length === 0 ? el("p", { class: "note" }, "You have no segments yet.") :
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Segment"), el("th", { class: "num" }, "Length"), el("th", {}, "Made"))),
      el("tbody", {}, page.items.map((s) => el("tr", {},
        el("td", {}, el("a", { href: `#/segment/${encodeURIComponent(s.id)}` }, s.name)),
        el("td", { class: "num" }, distance(s.length_m)), el("td", {}, day(s.created_at)))))),
    el("p", { class: "note" }, `${page.total} segments.`));
}

export async function segmentPage(id) {
  const path = `/v1/segments/${encodeURIComponent(id)}`;
  const [segment, board, me] = await Promise.all([api(path), api(`${path}/leaderboard?limit=200`), api("/v1/users/me")]);
  show(el("h1", {}, segment.name),
    el("p", { class: "note" }, `${distance(segment.length_m)} · by ${segment.owner} · ${board.total} people`),
    el("h2", {}, "Leaderboard"), leaderboardTable(board, me.id));
}
