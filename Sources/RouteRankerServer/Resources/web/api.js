// The API: requests with the signed-in person's token, and uploads with a progress bar.

export const tokenKey = "routeranker.token";

let unauthorized = () => {};
/// What to do when the server no longer takes the token (app.js signs out).
export function onUnauthorized(handler) { unauthorized = handler; }

export async function api(path, options = {}) {
  const headers = { Authorization: "Bearer " + localStorage.getItem(tokenKey), ...(options.headers || {}) };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options.method || "GET", headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (response.status === 401) { unauthorized(); throw new Error("Please sign in again."); }
  if (options.raw) {
    if (!response.ok) throw new Error("The server answered " + response.status + ".");
    return response.text();
  }
  const body = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error((body && body.error && body.error.message) || "The server answered " + response.status + ".");
  return body;
}

/// Sends `body` with XMLHttpRequest, whose upload events give a real progress bar; resolves with
/// the status and the parsed JSON answer.
export function send(method, path, body, type, bar) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.setRequestHeader("Authorization", "Bearer " + localStorage.getItem(tokenKey));
    if (type) request.setRequestHeader("Content-Type", type);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) { bar.max = event.total; bar.value = event.loaded; }
    });
    request.addEventListener("load", () => {
      let answer = null;
      try { answer = request.responseText ? JSON.parse(request.responseText) : null; } catch { answer = null; }
      resolve({ status: request.status, body: answer });
    });
    request.addEventListener("error", () => reject(new Error("The connection failed; try again.")));
    request.send(body);
  });
}
