// Live following of a recording route. EventSource cannot send the Authorization header, so the
// stream is read with fetch() and the Server-Sent Events are parsed here; a dropped stream is
// resumed with Last-Event-ID.
import { tokenKey } from "./api.js";
import { el } from "./dom.js";

let stopLive = null;  // ends the stream of the page being left

/// Ends the stream of the page being left, if it follows one.
export function stopFollowing() {
  if (stopLive) { stopLive(); stopLive = null; }
}

export function liveControls(path, update) {
  const status = el("span", { id: "live-status", class: "live-badge" }, "Connecting…");
  const button = el("button", { type: "button", id: "live-toggle" }, "Stop following");
  let controller = null, lastID = null, done = false, retry = 1000;

  const setStatus = (text, kind) => { status.textContent = text; status.dataset.state = kind; };
  const dispatch = (event, data) => {
    if (event === "points") {
      const body = JSON.parse(data);
      update(body.stats, null);
      setStatus("Live", "live");
    } else if (event === "finished") {
      done = true;
      const summary = JSON.parse(data);
      update(summary.stats, summary.state);
      setStatus("Finished", "finished");
      button.hidden = true;
    } else if (event === "gone") {
      done = true;
      setStatus("Gone: deleted, or no longer shared with you", "gone");
      button.hidden = true;
    }
  };

  async function follow() {
    controller = new AbortController();
    const headers = { Authorization: "Bearer " + localStorage.getItem(tokenKey), Accept: "text/event-stream" };
    if (lastID !== null) headers["Last-Event-ID"] = lastID;
    try {
      const response = await fetch(path, { headers, signal: controller.signal, cache: "no-store" });
      if (response.status === 401 || response.status === 404 || response.status === 403) {
        done = true;
        setStatus(response.status === 401 ? "Please sign in again." : "Gone: deleted, or no longer shared with you", "gone");
        button.hidden = true;
        return;
      }
      // A Last-Event-ID the server no longer takes (the privacy view changed): start over.
      if (response.status === 400) lastID = null;
      if (!response.ok || !response.body) throw new Error("answer " + response.status);
      setStatus("Live", "live");
      retry = 1000;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "", event = "", data = [];
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split(/\r\n|\r|\n/);
        buffer = lines.pop();  // an unfinished line waits for the next chunk
        for (const line of lines) {
          if (line === "") {
            if (data.length > 0 || event) dispatch(event || "message", data.join("\n"));
            event = ""; data = [];
            if (done) { controller.abort(); return; }
            continue;
          }
          if (line.startsWith(":")) continue;  // a comment (keep-alive)
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
          else if (field === "id" && !value.includes("\0")) lastID = value;
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;  // stopped by the page
    }
    if (done || controller.signal.aborted) return;
    // The stream ended without finished or gone: come back where we left off.
    setStatus("Reconnecting…", "waiting");
    setTimeout(() => { if (!done && !controller.signal.aborted) follow(); }, retry);
    retry = Math.min(retry * 2, 15000);
  }

  const stop = () => { if (controller) controller.abort(); };
  button.addEventListener("click", () => {
    if (controller && !controller.signal.aborted) {
      stop();
      setStatus("Not following", "stopped");
      button.textContent = "Follow live";
    } else {
      button.textContent = "Stop following";
      setStatus("Connecting…", "waiting");
      follow();
    }
  });
  if (stopLive) stopLive();
  stopLive = stop;
  follow();
  return el("div", { class: "live", role: "status" }, status, " ", button);
}
