// Groups of routes: the list, and a form to make one.
import { api } from "./api.js";
import { el, show } from "./dom.js";

export async function groups() {
  const page = await api("/v1/groups?limit=200");
  const mine = await api("/v1/routes?limit=200");
  const message = el("p", { role: "status" });
  show(el("h1", {}, "Groups"),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Group"), el("th", { class: "num" }, "Routes"))),
      el("tbody", {}, page.items.map((g) => el("tr", {}, el("td", {}, g.name), el("td", { class: "num" }, g.routes.length))))),
    el("h2", {}, "New group"),
    el("form", { id: "group-form", onsubmit: async (event) => {
      event.preventDefault();
      const data = new FormData(event.target);
      try {
        await api("/v1/groups", { method: "POST", body: { name: data.get("name"), routes: data.getAll("routes") } });
        await groups();
      } catch (error) { message.textContent = error.message; }
    } },
      el("label", {}, "Name", el("input", { name: "name", required: true })),
      el("fieldset", {}, el("legend", {}, "Routes"), mine.items.map((r) =>
        el("label", {}, el("span", {}, el("input", { type: "checkbox", name: "routes", value: r.id }), " ", r.name)))),
      el("button", { type: "submit" }, "Create group")),
    message);
}
