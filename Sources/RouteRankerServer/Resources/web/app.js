// RouteRanker's web app: plain JavaScript over the public API, no build step, nothing from
// another origin. Every text from the server is set with textContent (never as markup); the
// server's SVG pictures are parsed as XML and imported, so nothing in them can run.
// This module routes; each page is a module of its own, and the helpers they share are small ones.
import { accountPage } from "./account.js";
import { onUnauthorized, tokenKey } from "./api.js";
import { compare } from "./compare.js";
import { devicePage } from "./device.js";
import { failure } from "./dom.js";
import { groups } from "./groups.js";
import { importPage } from "./import.js";
import { inbox } from "./inbox.js";
import { stopFollowing } from "./live.js";
import { myRoutes } from "./my-routes.js";
import { recordsPage } from "./records.js";
import { routePage } from "./route.js";
import { mySegments, segmentPage } from "./segments.js";
import { onSignedIn, signIn, signOut } from "./sign-in.js";
import { uploadPage } from "./upload.js";

// ---- Sections -------------------------------------------------------------------------------
// Each section is a hash route (#/name/arg) and the page's function that shows it.

const sections = {
  routes: myRoutes,
  inbox: inbox,
  route: routePage,
  groups: groups,
  compare: compare,
  segments: mySegments,
  segment: segmentPage,
  records: recordsPage,
  upload: uploadPage,
  import: importPage,
  account: accountPage,
  device: devicePage,
};

async function route() {
  if (!localStorage.getItem(tokenKey)) return signIn();
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
  stopFollowing();
  const [name, arg] = location.hash.replace(/^#\//, "").split("?")[0].split("/");
  const section = sections[name] ? name : "routes";
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.getAttribute("href") === "#/" + section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  try {
    await sections[section](arg && decodeURIComponent(arg));
    document.getElementById("main").focus({ preventScroll: true });
  } catch (error) { failure(error); }
}

onUnauthorized(signOut);
onSignedIn(route);
window.addEventListener("hashchange", route);
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("sign-out").addEventListener("click", signOut);
  route();
});
