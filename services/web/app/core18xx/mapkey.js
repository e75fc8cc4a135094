// @ts-check
// The map's key: what each line, ring and mark on an 18xx map means, each beside a small drawing
// made the way map.js draws it, only for what this board has (narrow gauge in 18Ireland, region
// borders in 1841). Opened from a "Key" button on the map's tool bar, on a phone as on a desktop.
import { h, s } from "../dom.js";

/**
 * A swatch: a small SVG 44×24 with the given shapes.
 * @param {...SVGElement} shapes
 */
const swatch = (...shapes) => s("svg", { class: "key-swatch", viewBox: "0 0 44 24", width: 44, height: 24, "aria-hidden": "true" }, ...shapes);

/**
 * @param {string} currency   "L." or "£"
 * @param {any} board         the view's board
 * @returns {[SVGElement, string][]}
 */
function items(currency, board) {
  const hexes = board?.hexes ?? [];
  const paths = hexes.flatMap((/** @type {any} */ hx) => hx.paths ?? []);
  const narrow = paths.some((/** @type {any} */ p) => p.track === "narrow");
  const nodes = hexes.flatMap((/** @type {any} */ hx) => hx.nodes ?? []);
  const terrain = new Set(hexes.flatMap((/** @type {any} */ hx) => (hx.cost > 0 ? hx.terrain ?? [] : [])));
  const out = /** @type {[SVGElement, string][]} */ ([]);
  out.push([swatch(s("line", { x1: 2, y1: 12, x2: 42, y2: 12, stroke: "#1b1b1b", "stroke-width": 6 })),
    narrow ? "Solid black line: broad gauge track." : "Solid black line: track. A train runs along it from stop to stop."]);
  if (narrow) {
    out.push([swatch(s("line", { x1: 2, y1: 12, x2: 42, y2: 12, stroke: "#7a4a12", "stroke-width": 4, "stroke-dasharray": "7 3" })),
      "Brown dashed line: narrow gauge track (a company's network of one gauge does not reach the other's, except through tiles that carry both)."]);
  }
  if ((board?.closed ?? []).length) {
    out.push([swatch(s("polygon", { points: "2,22 12,2 32,2 42,22", fill: "#f4efe0", stroke: "#6b6b6b" }),
      s("line", { x1: 12, y1: 2, x2: 32, y2: 2, stroke: "#c0001a", "stroke-width": 4, "stroke-dasharray": "9 4", "stroke-linecap": "round" })),
    "Red dashed hex side: a region border standing now. In phase 2 no track may cross it; a station goes only where the network reaches inside the region; trains cross it freely. The first 4-train and 5-train take borders away."]);
  }
  if (hexes.some((/** @type {any} */ hx) => (hx.borders ?? []).length)) {
    out.push([swatch(s("polygon", { points: "2,22 12,2 32,2 42,22", fill: "#f4efe0", stroke: "#6b6b6b" }),
      s("line", { x1: 12, y1: 2, x2: 32, y2: 2, stroke: "#222", "stroke-width": 5, "stroke-linecap": "round" })),
    "Thick dark hex side: impassable. No track is ever laid across it."]);
  }
  const cost = (/** @type {string} */ mark) => swatch(s("text", { x: 4, y: 17, "font-size": 13, fill: "#5b2d00" }, `${mark}${currency}50`));
  if (terrain.has("mountain") || terrain.has("hill")) out.push([cost("▲"), "▲ and an amount: a mountain. The first tile laid on the hex costs that much."]);
  if (terrain.has("water") || terrain.has("swamp") || terrain.has("river")) out.push([cost("≈"), "≈ and an amount: water or swamp. The first tile laid on the hex costs that much."]);
  out.push([swatch(s("rect", { x: 11, y: 3, width: 22, height: 18, rx: 9, fill: "#fff", stroke: "#111", "stroke-width": 1.5 }),
    s("circle", { cx: 22, cy: 12, r: 7, fill: "#fff", stroke: "#999" })),
  "White circle in a box: a city's free station slot (a box of two or three: that many slots)."]);
  out.push([swatch(s("circle", { cx: 22, cy: 12, r: 9, fill: "#2a7", stroke: "#999" }),
    s("text", { x: 22, y: 14.5, "text-anchor": "middle", "font-size": 6.5, "font-weight": 700, fill: "#fff" }, "SFL")),
  "Filled circle with a name: that company's station. Another company's train may run through a full city only if one slot is its own."]);
  if (nodes.some((/** @type {any} */ n) => (n.reserved ?? []).some(Boolean))) {
    out.push([swatch(s("circle", { cx: 22, cy: 12, r: 9, fill: "#fff", stroke: "#c0001a", "stroke-width": 2.5 }),
      s("text", { x: 22, y: 14.5, "text-anchor": "middle", "font-size": 6.5, "font-weight": 700, fill: "#333" }, "SFL")),
    "Coloured ring with a name in a white slot: a reserved home, kept free for that company's first station."]);
  }
  out.push([swatch(s("circle", { cx: 22, cy: 12, r: 5, fill: "#111" })), "Black dot: a town. It pays its revenue; it does not count toward a train's length where the title says so (1841), and takes no station."]);
  out.push([swatch(s("circle", { cx: 22, cy: 12, r: 8, fill: "#fff", stroke: "#333" }), s("text", { x: 22, y: 15, "text-anchor": "middle", "font-size": 9 }, "30")),
    "Number in a small circle: what the stop pays a train that runs to it."]);
  if (hexes.some((/** @type {any} */ hx) => hx.pass)) {
    out.push([swatch(s("text", { x: 22, y: 15, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: "#555" }, "pass")),
      "“pass” over a city: a mountain pass. It takes a station but pays nothing."]);
  }
  out.push([swatch(s("polygon", { points: "2,12 12,2 32,2 42,12 32,22 12,22", fill: "#e0533c", stroke: "#6b6b6b" })),
    "Red hex: an off-board area. It pays the amount shown (more in later phases); a route may end there, never pass through."]);
  if (hexes.some((/** @type {any} */ hx) => hx.color === "blue")) {
    out.push([swatch(s("polygon", { points: "2,12 12,2 32,2 42,12 32,22 12,22", fill: "#7fb9e6", stroke: "#6b6b6b" })), "Blue hex: a port on the sea."]);
  }
  out.push([swatch(s("polygon", { points: "2,12 12,2 32,2 42,12 32,22 12,22", fill: "#f7dc4a", stroke: "#6b6b6b" }),
    s("polygon", { points: "14,12 18,4 26,4 30,12 26,20 18,20", fill: "#7cc57a" })),
  "Hex colours: pale hexes have no tile yet; yellow, then green, brown and grey tiles replace each other as the phases allow."]);
  out.push([swatch(s("circle", { cx: 22, cy: 12, r: 10, fill: "none", stroke: "#0057d9", "stroke-width": 2.5, "stroke-dasharray": "6 4" })),
    "Blue dashed ring: where you can act now. Tap it (a hex to lay a tile on, a slot for a station, a stop of a route)."]);
  out.push([swatch(s("text", { x: 22, y: 16, "text-anchor": "middle", "font-size": 10, fill: "#777" }, "Q11")),
    "Small grey letters and number: the hex's coordinate. Lists and the log name a hex by its place, with its coordinate beside it: “Firenze (Q11)”."]);
  return out;
}

/**
 * The key's toggle (for the map's tool bar) and its panel (opened between the tool bar and the map).
 * and a second opener for under the map (a phone's map is taller than its screen: the tool bar
 * is out of sight when the player reaches the bottom of the map).
 * @returns {{toggle: HTMLButtonElement, below: HTMLElement, panel: HTMLElement, update: (currency: string, board: any) => void}}
 */
export function mapKey() {
  const list = h("ul", { class: "key-list" });
  const close = h("button", { type: "button", class: "key-close", "aria-label": "Close the map key", dataset: { testid: "map-key-close" } }, "Close");
  const panel = h("section", { class: "map-key", id: "map-key", hidden: true, "aria-label": "Map key", dataset: { testid: "map-key" } },
    h("header", {}, h("h2", {}, "Map key"), close), list);
  const toggle = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "key-toggle", "aria-expanded": "false",
    "aria-controls": "map-key", dataset: { testid: "map-key-toggle" } }, "Key"));
  const show = (/** @type {boolean} */ open) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Hide key" : "Key";
  };
  // Opened, brought wholly into sight (a desktop's map column starts below the page's header).
  const open = () => {
    show(true);
    panel.scrollIntoView({ block: "nearest" });
  };
  toggle.addEventListener("click", () => (panel.hidden ? open() : show(false)));
  const below = h("p", { class: "map-legend" }, h("button", { type: "button", class: "link-button", "aria-controls": "map-key",
    dataset: { testid: "map-key-below" }, onclick: open }, "Map key: what the lines and marks mean"));
  close.addEventListener("click", () => show(false));
  let drawn = "";
  const update = (/** @type {string} */ currency, /** @type {any} */ board) => {
    const kinds = items(currency, board);
    const key = kinds.map(([, text]) => text).join("\n");
    if (key === drawn) return;   // drawn again only when the board gains or loses a kind of mark
    drawn = key;
    list.replaceChildren(...kinds.map(([svg, text]) => h("li", {}, svg, h("span", {}, text))));
  };
  return { toggle, below, panel, update };
}
