// Uploading route files, several at once, each with its progress bar and result.
import { send } from "./api.js";
import { el, show } from "./dom.js";
import { distance } from "./format.js";

/// The Content-Type of a route file, from its name (the server decides what it accepts).
function uploadType(name) {
  const lower = name.toLowerCase();
  const types = { ".gpx": "application/gpx+xml", ".fit": "application/vnd.ant.fit", ".tcx": "application/vnd.garmin.tcx+xml",
    ".ndjson": "application/x-ndjson", ".json": "application/json", ".txt": "text/plain" };
  const found = Object.keys(types).find((ext) => lower.endsWith(ext));
  return found ? types[found] : null;
}

export async function uploadPage() {
  const rows = el("tbody", { id: "upload-rows" });
  const upload = async (files) => {
    for (const file of files) {
      const bar = el("progress", { max: 1, value: 0, "aria-label": `Uploading ${file.name}` });
      const result = el("td", { class: "result" }, "Uploading…");
      rows.append(el("tr", { "data-file": file.name }, el("td", {}, file.name), el("td", {}, bar), result));
      const type = uploadType(file.name);
      if (!type) { result.textContent = "Not a route file this server reads (GPX, FIT, TCX, JSON, NDJSON or text)."; continue; }
      const name = encodeURIComponent(file.name.replace(/\.[^.]+$/, ""));
      // The file's name names the route when the file has none (GPX without a name, NDJSON, text);
      // FIT and TCX files name themselves after their sport and date.
      const named = ["application/gpx+xml", "application/x-ndjson", "text/plain"].includes(type);
      const path = named ? `/v1/routes?name=${name}` : "/v1/routes";
      try {
        const answer = await send("POST", path, file, type, bar);
        bar.value = bar.max;
        if (answer.status === 201) {
          result.replaceChildren("Uploaded: ", el("a", { href: `#/route/${answer.body.id}` }, answer.body.name),
            ` · ${distance(answer.body.stats.distance_m)}`);
        } else {
          result.replaceChildren(el("span", { class: "error" },
            (answer.body && answer.body.error && answer.body.error.message) || `The server answered ${answer.status}.`));
        }
      } catch (error) { result.replaceChildren(el("span", { class: "error" }, error.message)); }
    }
  };
  const input = el("input", { type: "file", id: "upload-files", multiple: true,
    accept: ".gpx,.fit,.tcx,.json,.ndjson,.txt", onchange: (event) => upload([...event.target.files]) });
  const drop = el("div", { class: "drop", id: "drop-zone",
    ondragover: (event) => { event.preventDefault(); drop.classList.add("over"); },
    ondragleave: () => drop.classList.remove("over"),
    ondrop: (event) => { event.preventDefault(); drop.classList.remove("over"); upload([...event.dataTransfer.files]); } },
    el("p", {}, "Drop route files here, or pick them:"), el("label", { class: "button" }, "Upload routes", input));
  show(el("h1", {}, "Upload"),
    el("p", {}, "GPX, FIT and TCX files from your watch or bike computer, or JSON, NDJSON and text files. Several at once."),
    drop,
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "File"), el("th", {}, "Progress"), el("th", {}, "Result"))), rows),
    el("h2", {}, "Moving from Strava?"),
    el("p", {}, "Bring all your activities at once: ", el("a", { href: "#/import" }, "import your Strava archive"), "."));
}
