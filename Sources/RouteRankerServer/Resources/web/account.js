// The account: profile and friends, privacy zones, phones, token, export, and leaving.
import { api, tokenKey } from "./api.js";
import { el, show } from "./dom.js";
import { moment } from "./format.js";
import { phoneSettings } from "./phone-settings.js";
import { showToken, signIn } from "./sign-in.js";

export async function accountPage() {
  const [me, devices, zones] = await Promise.all([api("/v1/users/me"), api("/v1/devices"), api("/v1/users/me/privacy_zones")]);
  const message = el("p", { role: "status", id: "account-status" });
  const say = (text) => { message.textContent = text; };
  const profile = el("form", { id: "profile-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const friends = String(data.get("friends")).split(/[\s,]+/).filter(Boolean);
    try { await api("/v1/users/me", { method: "PATCH", body: { name: data.get("name"), friends } }); say("Saved."); }
    catch (error) { say(error.message); }
  } },
    el("label", {}, "Name", el("input", { name: "name", value: me.name, required: true, maxlength: "200" })),
    el("label", {}, "Friends (ids, separated by commas)", el("input", { name: "friends", value: me.friends.join(", "), size: "40" })),
    el("button", { type: "submit" }, "Save"));

  const zoneRows = el("tbody", { id: "zone-rows" });
  const zoneRow = (z) => el("tr", {},
    el("td", {}, el("input", { name: "lat", type: "number", step: "any", min: "-90", max: "90", value: z.lat, required: true, "aria-label": "Latitude" })),
    el("td", {}, el("input", { name: "lon", type: "number", step: "any", min: "-180", max: "180", value: z.lon, required: true, "aria-label": "Longitude" })),
    el("td", {}, el("input", { name: "radius_m", type: "number", min: "100", max: "2000", value: z.radius_m, required: true, "aria-label": "Radius in metres" })),
    el("td", {}, el("button", { type: "button", onclick: (event) => event.target.closest("tr").remove() }, "Remove")));
  zoneRows.append(...zones.map(zoneRow));
  const zoneForm = el("form", { id: "zones-form", onsubmit: async (event) => {
    event.preventDefault();
    const list = [...zoneRows.querySelectorAll("tr")].map((row) => ({
      lat: Number(row.querySelector("[name=lat]").value), lon: Number(row.querySelector("[name=lon]").value),
      radius_m: Number(row.querySelector("[name=radius_m]").value) }));
    try { await api("/v1/users/me/privacy_zones", { method: "PUT", body: list }); say("Privacy zones saved."); }
    catch (error) { say(error.message); }
  } },
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Latitude"), el("th", {}, "Longitude"), el("th", {}, "Radius (m)"), el("th", {}, ""))), zoneRows),
    el("button", { type: "button", onclick: () => zoneRows.append(zoneRow({ lat: "", lon: "", radius_m: 200 })) }, "Add a zone"),
    el("button", { type: "submit" }, "Save zones"));

  const deviceList = el("ul", { id: "device-list" }, devices.items.map((d) => el("li", {},
    el("a", { href: `#/device/${encodeURIComponent(d.id)}` }, d.name),
    ` · ${d.activity} · ${d.counts.recorded} points recorded · last seen ${moment(d.last_seen_at)}`,
    d.current_route ? el("span", {}, " · ", el("a", { href: `#/route/${d.current_route}` }, "recording now")) : null)));
  const connect = el("div", { id: "connect" });
  const deviceForm = el("form", { id: "device-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    try {
      const device = await api("/v1/devices", { method: "POST", body: { name: data.get("name"), activity: data.get("activity") } });
      connect.replaceChildren(...phoneSettings(device, me.id),
        el("p", {}, el("a", { href: `#/device/${encodeURIComponent(device.id)}`, id: "device-page-link" },
          `Watch ${device.name} record`), " once the app is set up."));
    } catch (error) { say(error.message); }
  } },
    el("label", {}, "Phone's name", el("input", { name: "name", required: true, value: "My phone" })),
    el("label", {}, "Records", el("select", { name: "activity" }, ["walk", "run", "ride", "drive", "other"].map((a) => el("option", { value: a }, a)))),
    el("button", { type: "submit" }, "Connect a phone"));

  const exportButton = el("button", { type: "button", id: "export", onclick: async () => {
    say("Preparing your archive…");
    try {
      const response = await fetch("/v1/users/me/export", { headers: { Authorization: "Bearer " + localStorage.getItem(tokenKey) } });
      if (!response.ok) throw new Error(`The server answered ${response.status}.`);
      const url = URL.createObjectURL(await response.blob());
      const link = el("a", { href: url, download: `routeranker-${me.id}.zip` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      say("Downloaded.");
    } catch (error) { say(error.message); }
  } }, "Download everything (zip)");

  const deleteForm = el("form", { id: "delete-form", onsubmit: async (event) => {
    event.preventDefault();
    const typed = new FormData(event.target).get("confirm");
    if (typed !== me.id) { say(`Type your id, ${me.id}, to confirm.`); return; }
    try {
      await api(`/v1/users/me?confirm=${encodeURIComponent(typed)}`, { method: "DELETE" });
      localStorage.removeItem(tokenKey);
      location.hash = "#/";
      signIn();
    } catch (error) { say(error.message); }
  } },
    el("label", {}, "Type your id to confirm",
      el("input", { name: "confirm", autocomplete: "off", required: true, "aria-describedby": "delete-hint" })),
    el("button", { type: "submit", class: "danger" }, "Delete my account"));

  show(el("h1", {}, "Account"), message,
    el("h2", {}, "You"), el("p", { class: "note" }, `Your id: ${me.id}`), profile,
    el("h2", {}, "Privacy zones"),
    el("p", {}, "Points within these circles (your home, say) are hidden from everyone but you."), zoneForm,
    el("h2", {}, "Phones"), deviceList, deviceForm, connect,
    el("h2", {}, "Token"),
    el("p", {}, "Make a new token if yours may have leaked; the old one stops working at once."),
    el("button", { type: "button", id: "rotate-token", onclick: async () => {
      try {
        const answer = await api("/v1/users/me/token", { method: "POST" });
        localStorage.setItem(tokenKey, answer.token);
        showToken(answer.token);
      } catch (error) { say(error.message); }
    } }, "Make a new token"),
    el("h2", {}, "Your data"), exportButton,
    el("h2", {}, "Leave"),
    el("p", { id: "delete-hint" }, `Deleting your account removes it and everything in it — routes, shares, links, `
      + `groups, segments, phones — for good. Your id is ${me.id}.`), deleteForm);
}
