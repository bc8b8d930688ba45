// A segment's leaderboard, as the segment and route pages show it.
import { el } from "./dom.js";
import { day, duration, speed } from "./format.js";

export function leaderboardTable(board, highlight) {
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
