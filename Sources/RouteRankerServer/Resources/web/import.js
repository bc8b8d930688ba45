// Importing a Strava archive, and following an import until it is done.
import { api, send } from "./api.js";
import { el, show } from "./dom.js";
import { day } from "./format.js";

export async function importPage(id) {
  if (id) return importProgress(id);
  const list = await api("/v1/imports?limit=20");
  const bar = el("progress", { max: 1, value: 0, id: "import-upload", "aria-label": "Uploading the archive" });
  const message = el("p", { role: "status", id: "import-status" });
  const input = el("input", { type: "file", id: "import-file", accept: ".zip,application/zip", onchange: async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    message.textContent = `Uploading ${file.name}…`;
    try {
      const answer = await send("POST", "/v1/imports", file, "application/zip", bar);
      if (answer.status === 202) location.hash = `#/import/${answer.body.id}`;
      else message.textContent = (answer.body && answer.body.error && answer.body.error.message) || `The server answered ${answer.status}.`;
    } catch (error) { message.textContent = error.message; }
  } });
  show(el("h1", {}, "Import from Strava"),
    el("p", {}, "On Strava: Settings → My Account → Download or Delete Your Account → Request your archive. " +
      "Upload the zip you get here (up to 4 GiB); GPX, FIT and TCX files in it become your routes, named as on Strava."),
    el("label", { class: "button" }, "Import an archive", input), " (a .zip)", bar, message,
    el("h2", {}, "Earlier imports"),
    list.items.length === 0 ? el("p", { class: "note" }, "None yet.") :
    el("ul", {}, list.items.map((job) => el("li", {}, el("a", { href: `#/import/${job.id}` }, `${day(job.created_at)} · ${job.state}`),
      ` · ${job.counts.imported} imported`))));
}

/// An import's progress bar, following the job until it is done, then its per-file table.
async function importProgress(id) {
  const bar = el("progress", { id: "import-progress", max: 1, value: 0, "aria-label": "Import progress" });
  const status = el("p", { role: "status", id: "import-state" });
  const table = el("div", { id: "import-files" });
  show(el("h1", {}, "Import"), bar, status, table);
  let job;
  for (;;) {
    job = await api(`/v1/imports/${encodeURIComponent(id)}`);
    bar.max = job.files_total || 1;
    bar.value = job.files_done;
    status.textContent = job.state === "queued" ? "Waiting for its turn…" :
      `${job.files_done} of ${job.files_total ?? "?"} files · ${job.counts.imported} imported, ` +
      `${job.counts.duplicates} already here, ${job.counts.failed} failed, ${job.counts.skipped} skipped` +
      (job.state === "failed" ? ` · failed: ${job.error}` : job.state === "done" ? " · done" : "");
    if (job.state === "done" || job.state === "failed" || !location.hash.startsWith("#/import/")) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const files = await api(`/v1/imports/${encodeURIComponent(id)}/files?limit=200`);
  const words = { imported: "imported", duplicate: "already here", failed: "failed", skipped: "skipped" };
  table.replaceChildren(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "File"), el("th", {}, "Result"))),
    el("tbody", {}, files.items.map((f) => el("tr", { "data-status": f.status }, el("td", {}, f.file),
      el("td", {}, f.route ? el("a", { href: `#/route/${f.route}` }, words[f.status]) : words[f.status],
        f.error ? el("span", { class: "error" }, ` — ${f.error.message}`) : null))))),
    files.next ? el("p", { class: "note" }, `The first 200 of ${files.total} files.`) : "");
}
