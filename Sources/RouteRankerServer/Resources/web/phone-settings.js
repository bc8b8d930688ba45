// Connecting a phone: each tracker app's settings and QR code.
import { tokenKey } from "./api.js";
import { el } from "./dom.js";

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
export function phoneSettings(device, user) {
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
