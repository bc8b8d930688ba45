// Building the page: elements made with their text (never markup), and the view they are shown in.

const view = () => document.getElementById("view");

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function show(...nodes) {
  view().replaceChildren(...nodes);
  const heading = view().querySelector("h1");
  document.title = (heading ? heading.textContent + " · " : "") + "RouteRanker";
}

export function failure(error) { show(el("h1", {}, "Something went wrong"), el("p", { class: "error", role: "alert" }, error.message)); }
