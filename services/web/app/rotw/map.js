// @ts-check
// The England & Wales map as SVG: pointy-top hexes in the "pointy-odd-r" layout (odd rows
// shifted half a hex east), hex ids "col,row". Terrain and barriers come from mapdata.js
// (generated from map.json: the view does not carry them); cities, goods, towns and track
// come from the view. All hex geometry (centres, edges and their numbering) is hexgeom.js's.
import { h, s } from "../dom.js";
import { R, W, centre, edgeCorners, edgePoint, edgeToward, points, xy } from "./hexgeom.js";
import { BARRIERS, TERRAIN } from "./mapdata.js";
import { cubeColor, seatColor } from "./names.js";

const FILL = { p: "#e9e2c6", m: "#b59a7a", w: "#b8d6ea", x: "#9fa7b0", s: "#dbe9f3" };
const NAME = { p: "open", m: "mountain ($4,000)", w: "water ($3,000)", x: "mountain with water ($4,000)", s: "sea" };

/**
 * @typedef {import("../pageapi.js").Target} Target
 * @typedef {{city: string, color: string, path: number[]}} Route  a delivery: where the cube starts, its colour, the links it runs over
 * @typedef {{targets: Map<string, Target>, picked: string | null, onPick: (hex: string) => void, routes?: Route[],
 *   trackColor?: (owner: any) => string, preview?: {hex: string, entry: number, exit: number} | null}} Interaction
 *   trackColor: a link owner's colour (seats by default); preview: a tile drawn before it is confirmed
 */

/**
 * Draw the whole map into svg. Layers: terrain, barriers, track, cities and towns (with
 * goods), names, then the outlines of the clickable hexes (on top, so no neighbour hides them).
 * @param {SVGSVGElement} svg
 * @param {any} view
 * @param {Interaction} ui
 */
export function drawMap(svg, view, ui) {
  const rows = TERRAIN.length;
  const cols = TERRAIN[0].length;
  svg.setAttribute("viewBox", `0 0 ${(cols * W + W / 2 + 4).toFixed(0)} ${(rows * 1.5 * R + R / 2 + 4).toFixed(0)}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Map of England and Wales");
  const cities = new Map((view.cities ?? []).map((/** @type {any} */ c) => [c.hex, c]));
  const towns = new Map((view.towns ?? []).filter((/** @type {any} */ t) => !t.urbanized).map((/** @type {any} */ t) => [t.hex, t]));
  const terrain = s("g", { class: "terrain" }); // not a `.layer`: those take no clicks (style.css)
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const t = TERRAIN[row][col];
      const id = `${col},${row}`;
      const target = ui.targets.get(id);
      if (t === "s" && !target) continue; // the sea is the background
      const { x, y } = xy(col, row);
      const city = cities.get(id);
      const label = city ? `${city.name} (${city.color})` : towns.get(id)?.name ?? `${id}: ${/** @type {any} */ (NAME)[t]}`;
      const g = s("g", {
        class: `hex t-${t}${target ? " target" : ""}${ui.picked === id ? " picked" : ""}`,
        dataset: target?.kind?.startsWith("route-") ? { hex: id, route: `${target.action.entry},${target.action.exit}`, kind: target.kind } : { hex: id },
        role: target ? "button" : undefined, tabindex: target ? 0 : undefined,
        "aria-label": target ? `${target.label}: ${label}` : undefined,
      },
      s("title", {}, target ? `${target.label}\n${label}` : label),
      s("polygon", { points: points(x, y), fill: /** @type {any} */ (FILL)[t], stroke: "#fff", "stroke-width": 0.6 }));
      if (t === "m" || t === "x") g.append(s("path", { d: `M${x - 5},${y + 4} L${x},${y - 5} L${x + 5},${y + 4}`, fill: "none", stroke: "#6b5236", "stroke-width": 1.2 }));
      if (t === "w" || t === "x") g.append(s("path", { d: `M${x - 6},${y + 7} q3,-3 6,0 t6,0`, fill: "none", stroke: "#3b7fb0", "stroke-width": 1 }));
      if (target) {
        g.addEventListener("click", () => ui.onPick(id));
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ui.onPick(id); }
        });
      }
      terrain.append(g);
    }
  }
  const barriers = s("g", { class: "layer barriers", "aria-hidden": "true" });
  for (const [a, b] of BARRIERS) {
    const e = edgeToward(a, b);
    if (e < 0) continue;
    const { x, y } = xy(a[0], a[1]);
    const [c1, c2] = edgeCorners(x, y, e);
    barriers.append(s("line", { class: "barrier", x1: c1.x, y1: c1.y, x2: c2.x, y2: c2.y, stroke: "#c0392b", "stroke-width": 3, "stroke-linecap": "round" }));
  }
  const owner = new Map((view.links ?? []).map((/** @type {any} */ l) => [l.id, l]));
  const track = s("g", { class: "layer track", "aria-hidden": "true" });
  for (const [hex, segs] of Object.entries(view.track ?? {})) {
    const { x, y } = centre(hex);
    for (const [link, e1, e2] of /** @type {number[][]} */ (segs)) {
      const l = owner.get(link);
      const a = edgePoint(x, y, e1);
      const b = edgePoint(x, y, e2);
      track.append(s("path", {
        class: `track${l?.complete ? " complete" : " open"}`, dataset: { owner: l?.owner ?? "", hex, link: String(link) },
        d: `M${a.x.toFixed(1)},${a.y.toFixed(1)} Q${x.toFixed(1)},${y.toFixed(1)} ${b.x.toFixed(1)},${b.y.toFixed(1)}`,
        fill: "none", stroke: (ui.trackColor ?? seatColor)(l?.owner ?? 0), "stroke-width": 3.5, "stroke-dasharray": l?.complete ? undefined : "3 2",
      }));
    }
  }
  if (ui.preview) {
    const { hex, entry, exit } = ui.preview;
    const { x, y } = centre(hex);
    const a = edgePoint(x, y, entry);
    const b = edgePoint(x, y, exit);
    track.append(s("path", {
      class: "track-preview", dataset: { hex, entry: String(entry), exit: String(exit), testid: "track-preview" },
      d: `M${a.x.toFixed(1)},${a.y.toFixed(1)} Q${x.toFixed(1)},${y.toFixed(1)} ${b.x.toFixed(1)},${b.y.toFixed(1)}`,
      fill: "none", stroke: "#1a5fb4", "stroke-width": 4.5, "stroke-dasharray": "2.5 1.5", "stroke-linecap": "round",
    }));
  }
  const places = s("g", { class: "layer places" });
  const names = s("g", { class: "layer names", "aria-hidden": "true" });
  for (const c of view.cities ?? []) {
    const { x, y } = centre(c.hex);
    const g = s("g", { class: "city", dataset: { city: c.hex, testid: "city" }, "aria-label": `${c.name}, ${c.color} city, goods: ${c.cubes.join(", ") || "none"}` },
      s("circle", { cx: x, cy: y, r: R * 0.62, fill: cubeColor(c.color), stroke: "#222", "stroke-width": 1.2 }));
    if (c.empty) g.append(s("circle", { cx: x, cy: y, r: R * 0.3, fill: "#fff", stroke: "#222", "stroke-width": 0.8 }));
    const cubes = /** @type {string[]} */ (c.cubes);
    cubes.forEach((colour, i) => {
      g.append(s("rect", { class: "cube", dataset: { color: colour }, x: x - (cubes.length * 6) / 2 + i * 6, y: y + R * 0.45, width: 5, height: 5, fill: cubeColor(colour), stroke: "#000", "stroke-width": 0.6 }));
    });
    places.append(g);
    names.append(s("text", { class: "place-name", x, y: y - R * 0.72 }, c.name));
  }
  for (const t of towns.values()) {
    const { x, y } = centre(t.hex);
    places.append(s("circle", { class: "town", cx: x, cy: y, r: R * 0.3, fill: "#fff", stroke: "#222" }));
    names.append(s("text", { class: "place-name town-name", x, y: y - R * 0.45 }, t.name));
  }
  const routes = s("g", { class: "layer routes", "aria-hidden": "true" });
  for (const route of ui.routes ?? []) routes.append(routeLine(route, owner));
  const outlines = s("g", { class: "layer outlines", "aria-hidden": "true", "pointer-events": "none" });
  for (const id of ui.targets.keys()) {
    const { x, y } = centre(id);
    outlines.append(s("polygon", { class: `outline target-outline fine${ui.picked === id ? " picked-outline" : ""}`, points: points(x, y, 0.92) }));
  }
  if (ui.picked && !ui.targets.has(ui.picked)) {
    const { x, y } = centre(ui.picked);
    outlines.append(s("polygon", { class: "outline target-outline fine picked-outline", points: points(x, y, 0.92) }));
  }
  // Places and names take no clicks when they sit on a clickable hex.
  places.setAttribute("pointer-events", "none");
  names.setAttribute("pointer-events", "none");
  svg.replaceChildren(s("rect", { x: 0, y: 0, width: "100%", height: "100%", fill: FILL.s, "pointer-events": "none" }), terrain, barriers, track, routes, places, names, outlines);
}

/**
 * A delivery drawn as a path: through the centres of each link's places and track hexes, in
 * the cube's colour, so the cities it passes and where it stops can be seen on the map.
 * @param {Route} route
 * @param {Map<number, any>} links
 */
function routeLine(route, links) {
  const stops = [route.city];
  for (const id of route.path) {
    const l = links.get(id);
    if (!l) continue;
    // A link's hexes run from `a`; the cube may run the link either way.
    const here = stops[stops.length - 1];
    const way = [l.a, ...l.hexes, l.b];
    stops.push(...(here === l.b ? way.reverse() : way).slice(1));
  }
  const d = stops.map((hex, i) => `${i ? "L" : "M"}${centre(hex).x.toFixed(1)},${centre(hex).y.toFixed(1)}`).join(" ");
  return s("path", { class: "delivery-path", dataset: { color: route.color }, d, fill: "none", stroke: cubeColor(route.color),
    "stroke-width": 6, "stroke-opacity": 0.55, "stroke-linecap": "round", "stroke-linejoin": "round" });
}

/**
 * Scroll a zoomed map box once so the land is in sight (at 4× on a phone the top left corner
 * is sea): centred on the middle of the cities. Later scrolling is the player's (or the
 * page's, to the hexes to act on).
 * @param {SVGSVGElement} svg @param {any} view
 */
export function centreOnce(svg, view) {
  if (svg.dataset.centred || !(view.cities ?? []).length) return;
  const box = /** @type {HTMLElement | null} */ (svg.closest("[data-scroll]"));
  if (!box || box.clientWidth === 0) return;
  svg.dataset.centred = "true";
  if (svg.clientWidth <= box.clientWidth + 1) return; // not zoomed: all of it is in sight
  const pts = view.cities.map((/** @type {any} */ c) => centre(c.hex));
  const x = pts.reduce((/** @type {number} */ a, /** @type {any} */ p) => a + p.x, 0) / pts.length;
  const y = pts.reduce((/** @type {number} */ a, /** @type {any} */ p) => a + p.y, 0) / pts.length;
  const scale = svg.clientWidth / svg.viewBox.baseVal.width;
  box.scrollLeft = x * scale - box.clientWidth / 2;
  box.scrollTop = y * scale - box.clientHeight / 2;
}

/** Zoom steps: on a phone the map starts at 4×, where a hex is about 50 px across (a tap target). */
export const MAP_ZOOM = { zooms: [1, 1.5, 2, 3, 4], phoneZoom: 4 };

/** What the map's marks mean. */
export function mapLegend() {
  return h("p", { class: "map-legend", dataset: { testid: "map-legend" } },
    "Hexes: open $2,000 · ", h("b", {}, "blue"), " water $3,000 · ", h("b", {}, "brown"), " mountain $4,000 · ",
    h("b", {}, "red edge"), " barrier (no track across) · discs: cities in their colour (grey takes no goods), small squares: goods cubes, white dot: empty city · ",
    "lines: track in its owner's colour (dashed: open, not yet a link) · wide pale lines: the deliveries from the city you picked (or the one announced), in the cube's colour · ", h("b", {}, "orange outline"), ": you can click it");
}
