// Signing up, signing in and out, and the token shown once.
import { api, tokenKey } from "./api.js";
import { show } from "./dom.js";

let signedIn = () => {};
/// What to do once a token works (app.js shows the page asked for).
export function onSignedIn(handler) { signedIn = handler; }

export function signIn() {
  document.getElementById("nav").hidden = true;
  document.getElementById("sign-out").hidden = true;
  show(document.getElementById("sign-in-template").content.cloneNode(true));
  document.getElementById("sign-up-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const error = document.getElementById("sign-up-error");
    try {
      const response = await fetch("/v1/users", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: data.get("id"), name: data.get("name"), friends: [] }) });
      const body = await response.json();
      if (!response.ok) { error.textContent = body.error.message; return; }
      localStorage.setItem(tokenKey, body.token);
      showToken(body.token);
    } catch (failure) { error.textContent = failure.message; }
  });
  document.getElementById("sign-in-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem(tokenKey, document.getElementById("token").value.trim());
    try {
      await api("/v1/users/me");
      if (!location.hash || location.hash === "#/signin") location.hash = "#/routes"; else signedIn();
    } catch (error) {
      localStorage.removeItem(tokenKey);
      document.getElementById("sign-in-error").textContent = "That token does not work.";
    }
  });
}

/// The token, shown once (after signing up or making a new one), with a copy button.
export function showToken(token) {
  document.getElementById("nav").hidden = false;
  document.getElementById("sign-out").hidden = false;
  show(document.getElementById("token-template").content.cloneNode(true));
  document.getElementById("new-token").textContent = token;
  document.getElementById("copy-token").addEventListener("click", async () => {
    const status = document.getElementById("copy-status");
    try { await navigator.clipboard.writeText(token); status.textContent = "Copied."; }
    catch { status.textContent = "Select the token and copy it by hand."; }
  });
}

export function signOut() {
  localStorage.removeItem(tokenKey);
  signIn();
}
