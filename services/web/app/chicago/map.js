// @ts-check
// The Chicago Express map as SVG, drawn from the view's hexes: an odd-q offset grid of
// flat-top hexes, columns A..S west to east, rows from 0 north to south, odd columns
// shifted half a hex down (the layout board.json describes).
import { s } from "../dom.js";
import { companyColor, ink } from "./names.js";

const R = 30; // circumradius in SVG units
const W = R * 1.5; // column pitch
const HH = (Math.sqrt(3) / 2) * R; // half the hex height

const TERRAIN_FILL = {
  plain: "#efe4c4",
  forest: "#9cc58a",
  mountain: "#c4a98a",
  city: "#f7f3ea",
  industrial: "#b9bec6",
};

/**
 * Grid position of a hex id such as "R3" or "I10".
 * @param {string} id
 */
export function cell(id) {
  return { col: id.charCodeAt(0) - 65, row: Number(id.slice(1)) };
}

/** @param {string} id */
export function centre(id) {
  const { col, row } = cell(id);
  return { x: R + col * W, y: HH + row * 2 * HH + (col % 2 ? HH : 0) };
}

const CORNERS = Array.from({ length: 6 }, (_, i) => {
  const a = (Math.PI / 3) * i;
  return [R * Math.cos(a), R * Math.sin(a)];
});

/** @param {number} x @param {number} y @param {number} [scale] */
function hexPoints(x, y, scale = 1) {
  return CORNERS.map(([dx, dy]) => `${(x + dx * scale).toFixed(1)},${(y + dy * scale).toFixed(1)}`).join(" ");
}

/**
 * @typedef {{hex: string, label: string, kind: "build" | "develop"}} Target  a hex a click acts on
 * @typedef {{targets: Map<string, Target>, placed: Set<string>, onPick: (hex: string) => void}} MapInteraction
 */

/**
 * Draw the map into `svg` (replacing its content).
 * @param {SVGSVGElement} svg
 * @param {any} view
 * @param {MapInteraction} interaction
 */
export function drawMap(svg, view, interaction) {
  const ids = view.hexes.map((/** @type {any} */ h) => cell(h.id));
  const cols = Math.max(...ids.map((/** @type {{col: number}} */ c) => c.col)) + 1;
  const rows = Math.max(...ids.map((/** @type {{row: number}} */ c) => c.row)) + 1;
  const width = R * 2 + (cols - 1) * W;
  const height = (rows + 0.5) * 2 * HH;
  svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Map");
  const startOf = new Map(view.companies.map((/** @type {any} */ c) => [c.start_hex, c]));
  const layers = view.hexes.map((/** @type {any} */ hex) => drawHex(hex, startOf.get(hex.id), view, interaction));
  svg.replaceChildren(...layers);
}

/**
 * @param {any} hex
 * @param {any} startCompany  the company starting here, if any
 * @param {any} view
 * @param {MapInteraction} interaction
 */
function drawHex(hex, startCompany, view, interaction) {
  const { x, y } = centre(hex.id);
  const target = interaction.targets.get(hex.id);
  const placed = interaction.placed.has(hex.id);
  const classes = ["hex", `t-${hex.terrain}`, target ? "target" : "", placed ? "placed" : ""].filter(Boolean).join(" ");
  const label = describeHex(hex, view);
  const g = s("g", {
    class: classes,
    dataset: { hex: hex.id },
    role: target ? "button" : "img",
    tabindex: target ? 0 : undefined,
    "aria-label": target ? `${target.label}. ${label}` : label,
  });
  g.append(
    s("title", {}, target ? `${target.label}\n${label}` : label),
    s("polygon", { class: "cell", points: hexPoints(x, y), fill: /** @type {any} */ (TERRAIN_FILL)[hex.terrain] ?? "#eee" }),
  );
  if (startCompany) {
    g.append(s("polygon", { class: "start-ring", points: hexPoints(x, y, 0.86), stroke: companyColor(startCompany.id), fill: "none" }));
  }
  g.append(...terrainMark(hex, x, y, view));
  g.append(s("text", { class: "cost", x: x - R * 0.62, y: y - HH * 0.45 }, `$${hex.cost}`));
  if (hex.house_value && hex.terrain !== "industrial") {
    g.append(s("text", { class: "house-value", x: x + R * 0.62, y: y - HH * 0.45 }, `+${hex.house_value}`));
  }
  if (hex.house) g.append(house(x + R * 0.45, y + HH * 0.05));
  g.append(...locomotives(hex, x, y));
  if (target) {
    g.addEventListener("click", () => interaction.onPick(hex.id));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        interaction.onPick(hex.id);
      }
    });
  }
  return g;
}

/**
 * The glyph for the hex's terrain, with its income (and name for cities).
 * @param {any} hex
 * @param {number} x
 * @param {number} y
 * @param {any} view
 * @returns {SVGElement[]}
 */
function terrainMark(hex, x, y, view) {
  const out = [];
  if (hex.chicago) {
    out.push(s("circle", { class: "chicago", cx: x, cy: y - 2, r: R * 0.42 }));
    out.push(s("text", { class: "income chicago-income", x, y: y + 2 }, String(hex.income)));
    out.push(s("text", { class: "city-name", x, y: y + HH * 0.78 }, "Chicago"));
  } else if (hex.terrain === "city") {
    out.push(s("circle", { class: "city-dot", cx: x, cy: y - 2, r: R * 0.3 }));
    out.push(s("text", { class: "income", x, y: y + 2 }, String(hex.income)));
    if (hex.name) out.push(s("text", { class: "city-name", x, y: y + HH * 0.78 }, hex.name));
  } else if (hex.terrain === "industrial") {
    const track = view.industry.find((/** @type {any} */ i) => i.hex === hex.id);
    out.push(s("rect", { class: "industry", x: x - 11, y: y - 13, width: 22, height: 20, rx: 3 }));
    out.push(s("text", { class: "income", x, y: y + 1 }, String(track ? track.value : hex.income)));
    if (hex.name) out.push(s("text", { class: "city-name", x, y: y + HH * 0.78 }, hex.name));
  } else if (hex.terrain === "mountain") {
    out.push(s("path", { class: "mountain", d: `M${x - 12},${y + 6} L${x},${y - 12} L${x + 12},${y + 6} Z` }));
    out.push(s("text", { class: "income small", x, y: y + 3 }, String(hex.income)));
  } else if (hex.terrain === "forest") {
    out.push(s("path", { class: "tree", d: `M${x},${y - 13} L${x + 9},${y + 3} L${x - 9},${y + 3} Z` }));
    out.push(s("rect", { class: "trunk", x: x - 2, y: y + 3, width: 4, height: 5 }));
  }
  return out;
}

/** @param {number} x @param {number} y */
function house(x, y) {
  return s("path", { class: "house", d: `M${x - 6},${y} L${x},${y - 6} L${x + 6},${y} L${x + 6},${y + 6} L${x - 6},${y + 6} Z` });
}

/**
 * One marker per company with a locomotive here, side by side along the hex's lower edge.
 * @param {any} hex
 * @param {number} x
 * @param {number} y
 */
function locomotives(hex, x, y) {
  const n = hex.locomotives.length;
  return hex.locomotives.map((/** @type {string} */ company, /** @type {number} */ i) => {
    const cx = x + (i - (n - 1) / 2) * 11;
    const cy = y + HH * 0.42;
    return s("rect", {
      class: "loco",
      x: cx - 5,
      y: cy - 5,
      width: 10,
      height: 10,
      rx: 2,
      fill: companyColor(company),
      stroke: ink(company),
      dataset: { company },
    });
  });
}

/**
 * What a hex is, in words (tooltip and screen readers).
 * @param {any} hex
 * @param {any} view
 */
export function describeHex(hex, view) {
  const parts = [`${hex.name ? `${hex.name} (${hex.id})` : hex.id}: ${hex.terrain}`];
  parts.push(`build $${hex.cost}${hex.next_build_cost !== hex.cost ? ` (next $${hex.next_build_cost})` : ""}`);
  if (hex.terrain === "industrial") {
    const track = view.industry.find((/** @type {any} */ i) => i.hex === hex.id);
    if (track) parts.push(`income ${track.value}`);
  } else if (hex.income) {
    parts.push(`income ${hex.income}`);
  }
  if (hex.house_value) parts.push(`house +${hex.house_value}`);
  if (hex.house) parts.push("developed");
  if (hex.locomotives.length) parts.push(`locomotives: ${hex.locomotives.join(", ")}`);
  if (hex.start_of) parts.push(`start of ${hex.start_of}`);
  return parts.join("; ");
}
