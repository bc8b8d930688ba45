// The server's SVG pictures, fetched with the token, parsed as XML and imported.
import { api } from "./api.js";
import { el } from "./dom.js";

/// An SVG picture from the API, fetched with the token, parsed as XML and imported.
export function picture(path, label) {
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
export function repaint(holder, pathOf) {
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
